"""zonkcam.hardware"""
