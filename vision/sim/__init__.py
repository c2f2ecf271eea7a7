"""The simulator and the drawn dice: footage of Zonk throws with its ground truth, and
pictures of dice drawn with OpenCV. For tests, benchmarks, training data and the demo; the live
path (frames to throws to dice) never imports it."""
