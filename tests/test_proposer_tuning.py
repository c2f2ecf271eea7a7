"""Which captured frames can teach the proposer: those a person went through whole."""
from zonkcam.models.frames import CapturedFrame, LabelledDie
from zonkcam.models.proposer_tuning import complete_frames


def test_only_frames_reviewed_whole_teach_the_proposer():
    checked, unsure, junk = (LabelledDie(3, 10, 10, 20, True, True), LabelledDie(4, 40, 10, 20, False, True),
                             LabelledDie(None, 70, 10, 20, False, False))
    frames = [CapturedFrame("a/1", None, (checked, junk)),  # every read die set by a person
              CapturedFrame("a/2", None, (checked, unsure)),  # a sure read nobody confirmed
              CapturedFrame("a/3", None, (junk,))]  # no die at all
    assert [f.key for f in complete_frames(frames)] == ["a/1"]
