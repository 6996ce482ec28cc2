#!/usr/bin/env python3
"""A small third-party client of the High Society REST API: it signs in, opens a table
against server bots (or joins one), plays its seat to the end and prints the result.

It uses only the documented API (/api/docs/) and the ``requests`` package:

    python examples/api_bot.py --url http://127.0.0.1:8000 --username demo --password demo
    python examples/api_bot.py ... --join 42          # take a seat at table 42
    python examples/api_bot.py ... --bots easy,hard   # opponents when opening a table

Strategy, deliberately simple: on a luxury (or Prestige, Gambling, Excursions) it bids
the cheapest set of its cards that beats the high bid, as long as it keeps a reserve of
money; it passes otherwise and on every misfortune; on the Yacht Club it offers its
smallest card; for Theft it gives up its least valuable luxury.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import requests

RESERVE = 30_000  # never spend below this: the poorest player is cast out
WANTED = ("lux", "prestige", "gambling", "excursions")


class Client:
    """The API over HTTP: JSON in, JSON out, errors as {"detail", "code"}."""

    def __init__(self, url: str, timeout: float = 30):
        self.base = url.rstrip("/") + "/api/v1"
        self.http = requests.Session()
        self.timeout = timeout

    def call(self, method: str, path: str, body: dict | None = None) -> requests.Response:
        while True:
            response = self.http.request(method, self.base + path, json=body, timeout=self.timeout)
            if response.status_code != 429:
                return response
            time.sleep(float(response.headers.get("Retry-After", "1")))

    def sign_in(self, username: str, password: str, code: str | None = None) -> None:
        body = {"username": username, "password": password}
        if code:  # an account with two-factor authentication: the app's code now
            body["code"] = code
        response = self.call("POST", "/auth/token/", body)
        if response.status_code != 200:
            raise SystemExit(f"Could not sign in: {response.json()['detail']}")
        self.http.headers["Authorization"] = f"Token {response.json()['token']}"

    def sign_out(self) -> None:
        self.call("DELETE", "/auth/token/")


def cheapest_bid(hand: list[int], need: int) -> list[int] | None:
    """The set of cards with the smallest total above ``need`` (fewest cards on a tie)."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    for size in range(1, len(hand) + 1):
        for cards in itertools.combinations(hand, size):
            total = sum(cards)
            if total > need and (best is None or (total, size) < best[:2]):
                best = (total, size, cards)
    return list(best[2]) if best else None


def decide(view: dict) -> dict:
    """One action for the legal actions in ``view``."""
    legal = view["legal_actions"]
    if "discard" in legal["types"]:
        return {"type": "discard", "card": legal["discard_choices"][0]}  # least valuable
    if "sealed_bid" in legal["types"]:
        return {"type": "sealed_bid", "card": min(legal["sealed_choices"])}
    wanted = view["auction"] == "normal" and view["card"].startswith(WANTED)
    if wanted and "bid" in legal["types"]:
        cards = cheapest_bid(legal["hand"], legal["to_beat"] - legal["current_bid"])
        if cards is not None and sum(legal["hand"]) - sum(cards) >= RESERVE:
            return {"type": "bid", "cards": cards}
    return {"type": "pass"}


def play(client: Client, game_id: int, poll: float, deadline: float) -> dict:
    """Play our seat until the game is over; returns the final view."""
    while time.monotonic() < deadline:
        response = client.call("GET", f"/games/{game_id}/")
        response.raise_for_status()
        view = response.json()
        if view["status"] in ("finished", "abandoned"):
            return view
        if view["legal_actions"] is None:
            time.sleep(poll)  # the others (or the server's bots) are thinking
            continue
        action = decide(view)
        response = client.call(
            "POST", f"/games/{game_id}/moves/", {**action, "version": view["version"]}
        )
        if response.status_code == 201:
            # During the Theft choice no card is up for auction: the move is about Theft.
            about = view["card"] or ("theft" if view["phase"] == "theft" else view["phase"])
            print(f"move {view['version']}: {describe(action)} on {about}")
        elif response.status_code == 409:
            continue  # the game moved on meanwhile: look again
        else:
            raise SystemExit(f"Move refused ({response.status_code}): {response.json()['detail']}")
    raise SystemExit("The game did not end in time.")


def describe(action: dict) -> str:
    if action["type"] == "bid":
        return "bid " + " + ".join(f"{c:,}" for c in action["cards"])
    if "card" in action:
        return f"{action['type']} {action['card']}"
    return action["type"]


def report(view: dict) -> str:
    lines = [f"Game {view['id']} is over ({view['version']} moves)."]
    for player, seat in zip(view["result"]["players"], view["seats_info"], strict=True):
        marks = " WINNER" if player["winner"] else ""
        marks += " (cast out)" if player["cast_out"] else ""
        you = " <- this bot" if seat["is_you"] else ""
        lines.append(
            f"  seat {player['seat']} {seat['display_name']}: status {player['status']}, "
            f"money {player['money']:,}{marks}{you}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--code", help="two-factor accounts: the authenticator app's code")
    parser.add_argument("--join", type=int, metavar="GAME_ID", help="join this table")
    parser.add_argument("--bots", default="easy,easy", help="opponents of a new table")
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between looks")
    parser.add_argument("--timeout", type=float, default=600, help="give up after (seconds)")
    args = parser.parse_args(argv)

    client = Client(args.url)
    client.sign_in(args.username, args.password, args.code)
    try:
        if args.join is not None:
            response = client.call("POST", f"/games/{args.join}/join/")
        else:
            levels = [level.strip() for level in args.bots.split(",") if level.strip()]
            response = client.call(
                "POST",
                "/games/",
                {"players": 1 + len(levels), "seats": [{"ai": level} for level in levels]},
            )
        if response.status_code not in (200, 201):
            raise SystemExit(f"Could not take a seat: {response.json()['detail']}")
        game_id = response.json()["id"]
        print(f"Playing game {game_id} as seat {response.json()['your_seat']}.")
        final = play(client, game_id, args.poll, time.monotonic() + args.timeout)
        if final["status"] == "abandoned":
            print(f"Game {game_id} was abandoned.")
            return 1
        print(report(final))
        return 0
    finally:
        client.sign_out()


if __name__ == "__main__":
    sys.exit(main())
