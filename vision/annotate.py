"""Drawing a reading onto its picture: each die's box, value and colour."""
from __future__ import annotations

import cv2
import numpy as np
from zonkcam.vision.dice import Reading

STATUS_BGR = {"ok": (0, 200, 0), "off_table": (0, 0, 255), "unreadable": (0, 200, 255),
              "cocked": (255, 0, 255), "stacked": (255, 0, 255)}


def annotate(image: np.ndarray, reading: Reading) -> np.ndarray:
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    line = max(1, round(max(out.shape[:2]) / 500))
    font = max(0.4, max(out.shape[:2]) / 1400)
    if reading.table:
        cv2.polylines(out, [np.array(reading.table, np.int32)], True, (255, 160, 0), line)
    for d in reading.dice:
        color = STATUS_BGR.get(d.status, (0, 200, 255))
        x1, y1, x2, y2 = d.box
        cv2.rectangle(out, (x1, y1), (x2, y2), color, line)
        text = f"{d.value if d.value else '?'} {d.color or ''}"
        org = (x1, max(12, y1 - 4))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, font, (0, 0, 0), line + 2)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, font, color, line)
    return out
