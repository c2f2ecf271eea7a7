"""zonkcam.vision"""
