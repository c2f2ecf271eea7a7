"""The two small networks behind the recognizer (torch; training only, never imported at run time).

- `Proposer`: a CenterNet-style net on a grey picture scaled to ~320 px. It outputs, at stride 4,
  a die-centre heatmap, the die's size (log pixels) and a sub-cell centre offset.
- `FaceClassifier`: reads a 40×40 grey crop of one top face: value 1..6 or reject (index 0).
"""
from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F
from zonkcam.models.crops import CROP as CROP  # the classifier's input side, defined with the crops

STRIDE = 4
N_CLASSES = 7  # 0 = reject, 1..6 = face value


def conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


def sep(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """Depthwise-separable 3×3 conv: most of the receptive field for little compute."""
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, dilation, dilation=dilation, groups=cin, bias=False),
        nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class Proposer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(conv(1, 16, 2), conv(16, 24, 2), conv(24, 24))
        self.s8 = nn.Sequential(sep(24, 64, 2), sep(64, 64))
        self.s16 = nn.Sequential(sep(64, 96, 2), sep(96, 96), sep(96, 96))
        self.s32 = nn.Sequential(sep(96, 128, 2), sep(128, 128), sep(128, 128, dilation=2))
        self.lat16 = nn.Conv2d(96, 128, 1)
        self.mix16 = sep(128, 64)
        self.lat8 = nn.Conv2d(64, 64, 1)
        self.mix8 = sep(64, 48)
        self.lat4 = nn.Conv2d(24, 48, 1)
        self.mix4 = conv(48, 32)
        self.head = nn.Conv2d(32, 5, 1)  # heat logit, log w, log h, dx, dy
        assert self.head.bias is not None
        nn.init.constant_(self.head.bias[:1], -4.0)  # start with few centres

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - 0.45) / 0.25
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        up = F.interpolate(f32, scale_factor=2.0, mode="nearest") + self.lat16(f16)
        up = F.interpolate(self.mix16(up), scale_factor=2.0, mode="nearest") + self.lat8(f8)
        up = F.interpolate(self.mix8(up), scale_factor=2.0, mode="nearest") + self.lat4(f4)
        return self.head(self.mix4(up))


class FaceClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv(1, 24), conv(24, 24), nn.MaxPool2d(2),
            conv(24, 48), conv(48, 48), nn.MaxPool2d(2),
            conv(48, 64), conv(64, 64), nn.MaxPool2d(2),
            conv(64, 128),
        )
        self.fc = nn.Linear(128, N_CLASSES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - 0.45) / 0.25
        return self.fc(self.body(x).mean(dim=(2, 3)))


# ---------------------------------------------------------------- the nets as exported
class ProposerHeads(nn.Module):
    """The proposer as shipped: heat as a probability, geometry as is."""

    def __init__(self, net: Proposer) -> None:
        super().__init__()
        self.net = net

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.net(image)
        return torch.sigmoid(out[:, :1]), out[:, 1:]


class FaceProbs(nn.Module):
    """The face classifier as shipped: class probabilities, reject first."""

    def __init__(self, net: nn.Module) -> None:  # a FaceClassifier, or a shipped one's twin
        super().__init__()
        self.net = net

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(crops), 1)
