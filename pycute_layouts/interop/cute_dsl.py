"""placeholder"""
__all__ = ["from_cute_dsl", "to_cute_dsl", "make_layout_tv"]
def from_cute_dsl(*a, **k): raise NotImplementedError
def to_cute_dsl(*a, **k): raise NotImplementedError
def make_layout_tv(*a, **k): raise NotImplementedError
