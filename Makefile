# Wake developer entry points. `make demo` and `make test` work on a fresh clone: each creates
# the virtual environment (.venv) and installs the project on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WAKE := $(BIN)/wake
MORZE := fixtures/scenarios/morze
GAMES := fixtures/games/morze
IO := fixtures/scenarios/iron_oak
IO_GAMES := fixtures/games/iron_oak
SWA := fixtures/scenarios/armada
SWA_GAMES := fixtures/games/armada
ST := fixtures/scenarios/ships
ST_GAMES := fixtures/games/ships

.PHONY: install demo test browser lint bench fixtures verify-fixtures clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

## the main job: load the bundled recorded games into the embedded store and replay one
demo: $(STAMP)
	$(WAKE) demo

## the whole test suite (installs Debian's Chromium for the browser tests when it can)
test: $(STAMP) browser
	$(BIN)/pytest

## headless Chromium from Debian's packages, for browser tests and PNG export
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing chromium (Debian package) for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "note: chromium not found and cannot be installed here; browser tests will skip"; fi; }

## benchmarks (not part of the test run): ratios measured in one run
bench: $(STAMP)
	$(BIN)/python -m tests.benchmarks.bench_viewer
	$(BIN)/python -m tests.benchmarks.bench_store
	$(BIN)/python -m tests.benchmarks.bench_armada
	$(BIN)/python -m tests.benchmarks.bench_rollouts
	$(BIN)/python -m tests.benchmarks.bench_browser
	$(BIN)/python -m tests.benchmarks.bench_first_board
	$(BIN)/python -m tests.benchmarks.bench_scribe
	$(BIN)/python -m tests.benchmarks.bench_memory

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

verify-fixtures: $(STAMP)
	$(WAKE) verify --strict $(GAMES)/*.wake.json $(IO_GAMES)/*.wake.json \
	  $(SWA_GAMES)/*.wake.json $(ST_GAMES)/*.wake.json

## re-record the bundled games with the CLI (deterministic: fixed seeds and game ids, and every
## order stamped with one fixed time, SOURCE_DATE_EPOCH = 2026-11-25T00:00:00Z). The physical
## games recorded before named draws keep their headers with --cards shuffled (cards named in
## the orders); the *-named ones enter each card drawn from a card sheet (issue 20).
fixtures: export SOURCE_DATE_EPOCH := 1795564800
fixtures: $(STAMP)
	mkdir -p $(GAMES)
	$(WAKE) record morze $(MORZE)/river_plate.json --seed 1 \
	  --game-id 00000000-0000-4000-8000-000000000001 -o $(GAMES)/river_plate-annihilation.wake.json
	$(WAKE) record morze $(MORZE)/denmark_strait.json --seed 1 \
	  --game-id 00000000-0000-4000-8000-000000000002 -o $(GAMES)/denmark_strait-turn_limit.wake.json
	$(WAKE) record morze $(MORZE)/channel_skirmish.json --seed 1 \
	  --game-id 00000000-0000-4000-8000-000000000003 -o $(GAMES)/channel_skirmish.wake.json
	$(WAKE) record morze $(MORZE)/convoy_battle.json --seed 1 \
	  --game-id 00000000-0000-4000-8000-000000000004 -o $(GAMES)/convoy_battle-large.wake.json
	$(WAKE) record morze $(MORZE)/narvik_destroyers.json --physical --cards shuffled \
	  --dice-sheet fixtures/dice/narvik_destroyers.txt \
	  --game-id 00000000-0000-4000-8000-000000000005 -o $(GAMES)/narvik_destroyers-physical.wake.json
	$(WAKE) record morze $(MORZE)/denmark_strait.json --seed 2 \
	  --game-id 00000000-0000-4000-8000-000000000006 -o $(GAMES)/denmark_strait-draw.wake.json
	# issue 24 item 2: a game with its win-probability analysis (bot rollouts), for the viewer's
	# graph: recorded, analysed in a scratch store, exported with its analysis section
	tmp=$$(mktemp -d) && \
	  $(WAKE) record morze $(MORZE)/channel_skirmish.json --seed 3 \
	    --game-id 00000000-0000-4000-8000-000000000008 -o $$tmp/game.wake.json && \
	  $(WAKE) import $$tmp/game.wake.json --store $$tmp/store.sqlite3 && \
	  $(WAKE) analyse 00000000-0000-4000-8000-000000000008 --every order --rollouts 40 \
	    --workers 1 --no-notes --store $$tmp/store.sqlite3 > /dev/null && \
	  $(WAKE) export 00000000-0000-4000-8000-000000000008 --analysis --store $$tmp/store.sqlite3 \
	    -o $(GAMES)/channel_skirmish-analysed.wake.json && \
	  rm -rf $$tmp
	mkdir -p $(IO_GAMES)
	$(WAKE) record iron_oak $(IO)/hampton_roads.json --seed 25 \
	  --game-id 00000000-0000-4000-8000-000000000101 -o $(IO_GAMES)/hampton_roads-magazine.wake.json
	$(WAKE) record iron_oak $(IO)/mobile_bay_gauntlet.json --seed 13 \
	  --game-id 00000000-0000-4000-8000-000000000102 -o $(IO_GAMES)/mobile_bay-fire5.wake.json
	$(WAKE) record iron_oak $(IO)/mobile_bay_gauntlet.json --seed 14 \
	  --game-id 00000000-0000-4000-8000-000000000103 -o $(IO_GAMES)/mobile_bay-fort-magazine.wake.json
	$(WAKE) record iron_oak $(IO)/mobile_bay_gauntlet.json --seed 24 \
	  --game-id 00000000-0000-4000-8000-000000000107 -o $(IO_GAMES)/mobile_bay-mines-grounding.wake.json
	$(WAKE) record iron_oak $(IO)/wassaw_sound.json --seed 3 \
	  --game-id 00000000-0000-4000-8000-000000000104 -o $(IO_GAMES)/wassaw_sound-night-spar.wake.json
	$(WAKE) record iron_oak $(IO)/hampton_roads.json --seed 2 --option mode=alternating \
	  --game-id 00000000-0000-4000-8000-000000000105 -o $(IO_GAMES)/hampton_roads-alternating.wake.json
	$(WAKE) record iron_oak $(IO)/hampton_roads.json --physical --cards shuffled \
	  --dice-sheet fixtures/dice/hampton_roads_iron_oak.txt \
	  --game-id 00000000-0000-4000-8000-000000000106 -o $(IO_GAMES)/hampton_roads-physical.wake.json
	$(WAKE) record iron_oak $(IO)/hampton_roads.json --physical \
	  --dice-sheet fixtures/dice/hampton_roads_iron_oak_named.txt \
	  --card-sheet fixtures/cards/hampton_roads_iron_oak.txt \
	  --game-id 00000000-0000-4000-8000-000000000108 \
	  -o $(IO_GAMES)/hampton_roads-physical-named.wake.json
	mkdir -p $(SWA_GAMES)
	$(WAKE) record armada $(SWA)/core_learning.json --seed 1 \
	  --game-id 00000000-0000-4000-8000-000000000201 -o $(SWA_GAMES)/core_learning-score.wake.json
	$(WAKE) record armada $(SWA)/core_learning.json --seed 6 \
	  --game-id 00000000-0000-4000-8000-000000000202 -o $(SWA_GAMES)/core_learning-last-ship.wake.json
	$(WAKE) record armada $(SWA)/core_learning.json --seed 3 \
	  --game-id 00000000-0000-4000-8000-000000000203 -o $(SWA_GAMES)/core_learning-overlap.wake.json
	$(WAKE) record armada $(SWA)/core_deployment.json --seed 3 \
	  --game-id 00000000-0000-4000-8000-000000000204 -o $(SWA_GAMES)/core_deployment-last-ship.wake.json
	$(WAKE) record armada $(SWA)/core_learning.json --physical --cards shuffled \
	  --dice-sheet fixtures/dice/core_learning_armada.txt \
	  --game-id 00000000-0000-4000-8000-000000000205 -o $(SWA_GAMES)/core_learning-physical.wake.json
	$(WAKE) record armada $(SWA)/core_learning.json --physical \
	  --dice-sheet fixtures/dice/core_learning_armada_named.txt \
	  --card-sheet fixtures/cards/core_learning_armada.txt \
	  --game-id 00000000-0000-4000-8000-000000000207 \
	  -o $(SWA_GAMES)/core_learning-physical-named.wake.json
	$(WAKE) record armada $(SWA)/core_deployment.json --seed 1 --option evade=ltp_2015 \
	  --game-id 00000000-0000-4000-8000-000000000206 -o $(SWA_GAMES)/core_deployment-ltp-evade.wake.json
	mkdir -p $(ST_GAMES)
	$(WAKE) record ships $(ST)/multi2.json --seed 1 \
	  --game-id 00000000-0000-4000-8000-000000000301 -o $(ST_GAMES)/multi2-duel.wake.json
	$(WAKE) record ships $(ST)/multi3.json --seed 1 \
	  --game-id 00000000-0000-4000-8000-000000000302 -o $(ST_GAMES)/multi3-three_players.wake.json
	$(WAKE) record ships $(ST)/multi4.json --seed 3 \
	  --game-id 00000000-0000-4000-8000-000000000303 -o $(ST_GAMES)/multi4-line_weapon.wake.json
	$(WAKE) record ships $(ST)/multi4.json --physical --cards shuffled --bots \
	  --commands fixtures/commands/ships_multi4_physical.jsonl \
	  --game-id 00000000-0000-4000-8000-000000000304 -o $(ST_GAMES)/multi4-physical.wake.json
	$(WAKE) record ships $(ST)/multi4.json --physical --card-sheet fixtures/cards/multi4_ships.txt \
	  --game-id 00000000-0000-4000-8000-000000000307 -o $(ST_GAMES)/multi4-physical-named.wake.json
	$(WAKE) record ships $(ST)/multi6.json --seed 5 \
	  --game-id 00000000-0000-4000-8000-000000000305 -o $(ST_GAMES)/multi6-dropout.wake.json
	$(WAKE) record ships $(ST)/multi6.json --seed 29 \
	  --game-id 00000000-0000-4000-8000-000000000306 -o $(ST_GAMES)/multi6-nadesico.wake.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
