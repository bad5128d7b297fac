"""A game recorded at a real table (issue 20): who may see and enter what, sealed choices, orders
given on the position a device showed, and take-backs that keep the line taken back.

A *table* belongs to a line of games (its first game's id, the ``origin``) and lives in the
store beside it (``domain.aggregate.ScribeTable``):

* each side's **secret**, from which the scribe salts that side's sealed choices exactly as the
  ruleset's bot salts its own (``Ruleset.with_bot_secret``): the ruleset's own menus and legal
  orders then open that side's seals at the reveal, and nobody without the secret can;
* the **game played now**: a take-back starts a variation of the game before the orders taken
  back and moves play there; the line taken back stays in the store, marked by a note;
* **capability links**: a secret token per side and for the umpire, of which only a SHA-256 is
  kept; a page is given its view by the token it presents, never by a name in its address.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from eventsourcing.persistence import IntegrityError

from domain.aggregate import (
    LEGACY_LINKS_STREAM_ID,
    LINKS_STREAM_ID,
    ScribeLinks,
    ScribeTable,
    legacy_table_stream_id,
    table_stream_id,
)
from domain.engine import CommandEnvelope, Fact, GameState
from domain.errors import InvalidCommand, NoSuchEvent, StoreError
from domain.events import CommandIssued
from domain.lineage import fork
from domain.scribe.menu import MenuOrder, menu_from_legal
from domain.scribe.server_key import sign_if_ended
from domain.store import GameStore

#: The view of a page that holds no link in hosted mode: what every side has seen. Not a side's
#: id, so every ruleset's ``redact`` hides from it whatever is hidden from any one side.
PUBLIC = "~public"

Role = Literal["umpire", "side", "public", "local"]
MAX_TAKE_BACK = 50  # orders taken back at once, at the most


@dataclass(frozen=True)
class Access:
    """What a page may see and do: ``local`` (one person's ``wake view``/``wake scribe`` on
    their own machine: everything, and view as any side), ``umpire`` (a table's umpire link:
    everything), ``side`` (a side's link: that side's view, its orders only), ``public`` (no
    link, in hosted mode: what every side has seen, no orders)."""

    role: Role
    side: str | None = None
    origin: str | None = None  # the table a link opens

    @property
    def viewer(self) -> str | None:
        """The view to redact for: None (everything) for the umpire and locally."""
        if self.role == "side":
            return self.side
        if self.role == "public":
            return PUBLIC
        return None

    def may_order(self, side: str | None) -> bool:
        """May this page enter an order for ``side``? A side gives its own orders and, like any
        player at the table, the table's own steps (``None``: an initiative roll, the start of
        a battle), which any side may trigger (``Ruleset.to_act``)."""
        if self.role in ("umpire", "local"):
            return True
        return self.role == "side" and (side is None or side == self.side)

    @property
    def sees_all(self) -> bool:
        return self.role in ("umpire", "local")


# --------------------------------------------------------------------------- the table


def _table(store: GameStore, origin: str) -> ScribeTable | None:
    return store.beside(
        ScribeTable, table_stream_id(origin), legacy_table_stream_id(origin), origin
    )


def open_table(store: GameStore, game_id: str) -> ScribeTable:
    """The table of ``game_id``'s line, made (with a fresh secret per side) on first use.

    Raises:
        GameNotFound: no such game.
    """
    header = store.header(game_id)
    origin = header.origin
    for _ in range(3):
        table = _table(store, origin)
        if table is not None:
            return table
        secrets_by_side = {side.id: secrets.token_hex(32) for side in header.sides}
        table = ScribeTable.start(origin, game_id, secrets_by_side)
        try:
            store.save(table)
        except IntegrityError:
            continue  # another device opened it first: read theirs
        return table
    raise StoreError(f"could not open the table of game {game_id}")


def current_game(store: GameStore, game_id: str) -> str:
    """The game a table plays now: ``game_id`` itself unless a take-back moved play on."""
    header = store.header(game_id)
    table = _table(store, header.origin)
    return table.game_id if table is not None else game_id


def side_secret(store: GameStore, game_id: str, side: str) -> str:
    """The secret ``side`` seals its choices with at this table (made on first use)."""
    table = open_table(store, game_id)
    try:
        return table.secrets[side]
    except KeyError as exc:
        raise InvalidCommand(f"no side {side} at this table") from exc


def rules_for(store: GameStore | None, state: GameState, side: str | None) -> Any:
    """The ruleset state as ``side`` decides from it at this table: with its own secret, so
    its sealed choices are salted (and later opened) from that secret. The table's steps and
    a game not kept in a store use the state as it is."""
    if side is None or store is None or not state.ruleset.meta.hidden_information:
        return state.rules
    secret = side_secret(store, state.header.game_id, side)
    return state.ruleset.with_bot_secret(state.rules, secret)


def menu(store: GameStore | None, state: GameState, side: str | None) -> list[MenuOrder]:
    """What ``side`` may order now, as a menu (the ruleset's own, or one built from its legal
    orders); empty when the game is over."""
    if state.result is not None:
        return []
    ruleset = state.ruleset
    rules = rules_for(store, state, side)
    own = ruleset.order_menu(rules, side)
    if own is not None:
        return own
    names = {u.id: u.name for u in ruleset.read_model(state.rules).units if u.name}
    names.update({s.id: s.name for s in state.header.sides})
    return menu_from_legal(
        ruleset.legal_commands(rules, side), side, names=names, describe=ruleset.describe_order
    )


def sealed_command(
    store: GameStore | None,
    state: GameState,
    side: str | None,
    order: MenuOrder,
    values: Mapping[str, Any],
) -> dict[str, Any]:
    """The command that seals ``side``'s secret ``values`` for a sealed menu order.

    Raises:
        InvalidCommand: the values do not make an order of the ruleset.
    """
    ruleset = state.ruleset
    command = ruleset.seal_order(rules_for(store, state, side), side, order, values)
    return cast(dict[str, Any], command.model_dump(mode="json"))


# --------------------------------------------------------------------------- orders


def submit(
    store: GameStore,
    game_id: str,
    side: str | None,
    command: Mapping[str, Any],
    expected: int,
    *,
    dice: Sequence[int] = (),
    cards: Sequence[str] = (),
) -> list[Fact]:
    """Store an order given at the table on the game as a device showed it after event
    ``expected``, with the physical dice faces (and cards) entered for it.

    Raises:
        WakeError: the order is refused (its rule named); OrderConflict: another device
            entered an order first. Nothing is appended in either case.
    """
    envelope_fields: dict[str, Any] = {"side": side, "command": dict(command)}
    if dice:
        envelope_fields["dice"] = list(dice)
    if cards:
        if "cards" not in CommandEnvelope.model_fields:
            raise InvalidCommand("this Wake cannot record physical card draws by name yet")
        envelope_fields["cards"] = list(cards)
    facts = store.submit_at(game_id, CommandEnvelope(**envelope_fields), expected)
    sign_if_ended(store, game_id, facts)  # a hosted server signs a game it finishes (issue 23)
    return facts


def orders_in(facts: Sequence[Fact]) -> list[int]:
    """The 0-based positions of the facts that give an order (``CommandIssued``)."""
    return [i for i, fact in enumerate(facts) if fact.topic == CommandIssued.TOPIC]


def take_back(store: GameStore, game_id: str, orders: int = 1, *, by: str = "scribe") -> str:
    """Take back the last ``orders`` orders of the game a table plays: a variation of it from
    just before them becomes the game played on (same title, sides and dice; seeded dice go on
    past every die the taken-back line showed), and the taken-back line stays in the store with
    a note on its first taken-back event. Returns the id of the game played on now.

    Raises:
        NoSuchEvent: fewer orders than that were given.
        OrderConflict / StoreError: the store refused the write (nothing is changed).
    """
    if not 1 <= orders <= MAX_TAKE_BACK:
        raise InvalidCommand(f"take back 1 to {MAX_TAKE_BACK} orders at once, not {orders}")
    header, facts = store.facts(game_id)
    given = orders_in(facts)
    own = [i for i in given if header.parent is None or i >= header.parent.event]
    if len(own) < orders:
        raise NoSuchEvent(
            f"only {len(own)} order(s) were given in this line; {orders} cannot be taken back"
        )
    event = own[-orders]  # the facts before the first order taken back
    state = store.state(game_id)
    secret = None
    dice_from = None
    if header.dice.mode == "seeded":
        dice_from = header.dice_start(state.seq, state.dice_position)
        if header.dice.sealed:
            held = store.secret_seed(game_id)
            secret = held[0] if held is not None else None
    title = header.title
    new_header, copied = fork(header, facts, event, title=title, seed_public=True)
    if dice_from is not None and new_header.parent is not None:
        parent = new_header.parent.model_copy(update={"dice_from": dice_from})
        new_header = new_header.model_copy(update={"parent": parent})
    table = open_table(store, game_id)
    store.import_game(new_header, copied, secret, seed_revealed=False)
    table.move_line(new_header.game_id, game_id, event, orders)
    store.save(table)
    store.annotate(
        game_id,
        event + 1,
        "note",
        by,
        f"{orders} order(s) from here were taken back at the table; play went on in another "
        "line of this game",
    )
    return new_header.game_id


# --------------------------------------------------------------------------- links


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_links(store: GameStore, game_id: str) -> dict[str, str]:
    """New capability links for a table: one per side (key: the side's id) and one for the
    umpire (key ``"umpire"``); each a secret token shown this once (only its hash is kept).
    Earlier links stay valid until revoked."""
    table = open_table(store, game_id)
    header = store.header(game_id)
    made: dict[str, str] = {}
    for role, side in [("umpire", None), *(("side", s.id) for s in header.sides)]:
        token = secrets.token_urlsafe(24)
        label = "umpire" if side is None else side
        table.issue_link(_hash(token), role, side, label)
        made[label] = token
    links = _links(store)
    for token in made.values():
        links.add(_hash(token), table.origin)
    store.save(table, links)
    return made


def _links(store: GameStore) -> ScribeLinks:
    found = store.beside(ScribeLinks, LINKS_STREAM_ID, LEGACY_LINKS_STREAM_ID, "the store")
    return found if found is not None else ScribeLinks.start()


def revoke_link(store: GameStore, game_id: str, number: int) -> None:
    """Revoke a table's link by its number (``links``): its token opens nothing from now on.

    Raises:
        InvalidCommand: no such link.
    """
    table = open_table(store, game_id)
    if not any(link["number"] == number for link in table.links):
        raise InvalidCommand(f"the table has no link number {number}")
    table.revoke_link(number)
    store.save(table)


def links(store: GameStore, game_id: str) -> list[dict[str, Any]]:
    """A table's links without their hashes: number, role, side, label, revoked."""
    table = open_table(store, game_id)
    return [{k: v for k, v in link.items() if k != "token_hash"} for link in table.links]


def resolve(store: GameStore, token: str | None) -> Access:
    """The access a page presenting ``token`` has in hosted mode: the umpire's or a side's for
    a live link, the public view for no token, an unknown one or a revoked one."""
    if not token or len(token) > 200:
        return Access("public")
    digest = _hash(token)
    origin = _links(store).tables.get(digest)
    if origin is None:
        return Access("public")
    table = _table(store, origin)
    if table is None:
        return Access("public")
    for link in table.links:
        if hmac.compare_digest(link["token_hash"], digest) and not link["revoked"]:
            role = "umpire" if link["role"] == "umpire" else "side"
            return Access(cast(Role, role), link["side"], origin)
    return Access("public")
