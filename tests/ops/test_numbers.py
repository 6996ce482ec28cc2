"""One check for a number written with the digits 0-9, wherever one comes in."""

from __future__ import annotations

import pytest

from ops.numbers import digits


@pytest.mark.parametrize("text", ["0", "7", "0042", "123456789012345678901234567890"])
def test_digits_0_to_9_are_a_number(text):
    assert digits(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " 1",
        "1 ",
        "-1",
        "+1",
        "1.0",
        "1e3",
        "1_000",
        "\u0663",
        "\uff11",
        "\u00b2",
        "\u2460",
        3,
        None,
        b"3",
    ],
)
def test_anything_else_is_not(text):
    assert not digits(text)
