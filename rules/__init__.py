"""zonkcam.rules"""
