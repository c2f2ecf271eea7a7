"""zonkcam.models"""
