# sluice build. `make run` and `make test` are the two commands a new user types;
# both install missing Debian packages first (`make deps`).
#
#   make            build bin/sluiced and bin/sluice
#   make test       build and run every test (unit, SQL regression, integration)
#   make run        start sluiced on the defaults with the demo query loaded
#   make SANITIZE=1 test   the same under ASan+UBSan (objects in build/san)
#   make TSAN=1 test       the same under ThreadSanitizer (objects in build/tsan)
#   make clean

SHELL := /bin/bash
.DEFAULT_GOAL := all

SANITIZE ?= 0
TSAN ?= 0
FUZZ ?= 0
ifeq ($(FUZZ),1)
  # libFuzzer builds (clang): everything instrumented for coverage
  CC  := clang
  O   := build/fuzz
  BIN := build/fuzz/bin
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
         -Wno-unknown-warning-option
else ifeq ($(TSAN),1)
  # ThreadSanitizer (gcc; cannot be combined with ASan): tests/tsan.supp
  # lists the suppressions, each for a library's own internals
  O   := build/tsan
  BIN := build/tsan/bin
  # (-u thrd_create links common/tsan_thrd.c in: librdkafka's threads become known to TSan)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=thread -Wl,-u,thrd_create
else ifeq ($(SANITIZE),1)
  O   := build/san
  BIN := build/san/bin
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
else
  O   := build/obj
  BIN := bin
  OPT := -O2 -g
endif

# Debian packages the build, the daemon and the tests use (the driver tests:
# psycopg 2 and 3, SQLAlchemy, pgjdbc with a JDK, node-postgres through npm;
# npm is Debian's package unless a Node.js install already brings one).
DEB_PACKAGES := gcc make pkg-config lemon libuv1-dev librdkafka-dev libsqlite3-dev \
  librocksdb-dev libmicrohttpd-dev libssl-dev libjansson-dev libpq-dev libedit-dev \
  postgresql-client postgresql clang-format kcat tmux chromium curl procps wrk openssl prometheus \
  python3-psycopg2 python3-psycopg python3-sqlalchemy libpostgresql-jdbc-java openjdk-17-jdk-headless nodejs

SRV_PKGS := libuv rdkafka sqlite3 rocksdb libmicrohttpd openssl jansson libpq
CLI_PKGS := libpq libedit

# Recursive (=) so pkg-config runs after `deps` has installed the packages.
BASE_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wvla -Wno-missing-field-initializers -Wno-format-truncation \
  $(OPT) -MMD -MP -I. -I$(O)/gen
SRV_CFLAGS = $(BASE_CFLAGS) $(shell pkg-config --cflags $(SRV_PKGS))
SRV_LIBS = $(shell pkg-config --libs $(SRV_PKGS)) -lm -lpthread
CLI_CFLAGS = $(BASE_CFLAGS) $(shell pkg-config --cflags $(CLI_PKGS))
CLI_LIBS = $(shell pkg-config --libs $(CLI_PKGS))

MODULES := common model parser planner exec state connectors runtime server
LIB_SRC := $(filter-out server/main.c,$(wildcard $(addsuffix /*.c,$(MODULES))))
# The web UI's files are embedded in the binary (server/ui/embed.sh writes a C table).
UI_FILES := $(sort $(wildcard server/ui/*.html server/ui/*.js server/ui/*.css server/ui/*.svg))
UI_OBJ := $(if $(UI_FILES),$(O)/gen/ui_assets.o)
LIB_OBJ := $(patsubst %.c,$(O)/%.o,$(LIB_SRC)) $(O)/gen/grammar.o $(UI_OBJ)
CLI_SRC := $(wildcard clients/*.c)
CLI_OBJ := $(patsubst %.c,$(O)/%.o,$(CLI_SRC))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRC))
TOOL_SRC := $(wildcard tests/tools/*.c)
TOOL_BIN := $(patsubst tests/tools/%.c,$(O)/tools/%,$(TOOL_SRC))
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(FUZZ_SRC))
BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(patsubst bench/%.c,$(O)/bench/%,$(BENCH_SRC))

.PHONY: all deps test unit run clean check-config benchmarks fuzz format format-check
all: $(BIN)/sluiced $(BIN)/sluice

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done; \
	    command -v npm >/dev/null || echo npm); \
	if [ -n "$$missing" ]; then \
	    echo "installing Debian packages:" $$missing; \
	    sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	    $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi
	@[ -d tests/drivers/node/node_modules ] || (cd tests/drivers/node && npm ci --no-audit --no-fund)

# Lemon writes grammar.c/grammar.h into the build tree; a conflict fails the build.
$(O)/gen/grammar.c: parser/grammar.y
	@mkdir -p $(O)/gen
	lemon -q -d$(O)/gen -T/usr/share/lemon/lempar.c parser/grammar.y > $(O)/gen/lemon.log 2>&1 \
	  || { cat $(O)/gen/lemon.log; rm -f $@; exit 1; }
	@if grep -q 'conflict' $(O)/gen/lemon.log; then cat $(O)/gen/lemon.log; rm -f $@; exit 1; fi
$(O)/gen/grammar.h: $(O)/gen/grammar.c

# Every object may include the generated token header.
$(LIB_OBJ) $(O)/server/main.o: | $(O)/gen/grammar.h

$(O)/gen/grammar.o: $(O)/gen/grammar.c
	$(CC) $(SRV_CFLAGS) -Wno-unused-parameter -Wno-unused-variable -Wno-shadow -Wno-missing-prototypes -Iparser -c $< -o $@

$(O)/gen/ui_assets.c: $(UI_FILES) server/ui/embed.sh
	@mkdir -p $(O)/gen
	sh server/ui/embed.sh $(UI_FILES) > $@.tmp && mv $@.tmp $@

$(O)/gen/ui_assets.o: $(O)/gen/ui_assets.c
	$(CC) $(SRV_CFLAGS) -c $< -o $@

$(O)/clients/%.o: clients/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CLI_CFLAGS) -c $< -o $@

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SRV_CFLAGS) -c $< -o $@

$(O)/libsluice.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# -rdynamic: the crash handler's backtrace names sluiced's functions (common/crash.h).
$(BIN)/sluiced: $(O)/server/main.o $(O)/libsluice.a
	@mkdir -p $(BIN)
	$(CC) $(OPT) -rdynamic -o $@ $^ $(SRV_LIBS)

# The CLI shares common/'s buffers and arenas (and what they need), nothing else.
CLI_COMMON_OBJ := $(addprefix $(O)/common/,buf.o arena.o sl_assert.o log.o)
$(BIN)/sluice: $(CLI_OBJ) $(CLI_COMMON_OBJ)
	@mkdir -p $(BIN)
	$(CC) $(OPT) -o $@ $^ $(CLI_LIBS)

$(O)/tests/%: $(O)/tests/unit/%.o $(O)/tests/unit/unit.o $(O)/libsluice.a
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -o $@ $^ $(SRV_LIBS)

# Test tools may use libpq as well as the server's libraries.
$(O)/tests/tools/%.o: tests/tools/%.c
	@mkdir -p $(dir $@)
	$(CC) $(SRV_CFLAGS) $(shell pkg-config --cflags $(CLI_PKGS)) -c $< -o $@

$(O)/tools/%: $(O)/tests/tools/%.o $(O)/libsluice.a
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -o $@ $^ $(SRV_LIBS) $(CLI_LIBS)

$(O)/bench/%: $(O)/bench/%.o $(O)/libsluice.a
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -o $@ $^ $(SRV_LIBS)

# Fuzz targets (tests/fuzz/fuzz_*.c): with the corpus replayer in normal
# builds (make test runs every corpus), with libFuzzer under FUZZ=1.
ifeq ($(FUZZ),1)
$(O)/fuzz/%: $(O)/tests/fuzz/%.o $(O)/libsluice.a
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -fsanitize=fuzzer -o $@ $^ $(SRV_LIBS)
else
$(O)/fuzz/%: $(O)/tests/fuzz/%.o $(O)/tests/fuzz/replay.o $(O)/libsluice.a
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -o $@ $^ $(SRV_LIBS)
endif

# make FUZZ=1 fuzz [FUZZ_SECONDS=60]: runs each target that long, new inputs
# kept in build/fuzz/corpus/<target> (copy the ones worth keeping into
# tests/fuzz/corpus/<target>).
FUZZ_SECONDS ?= 60
fuzz: $(FUZZ_BIN)
	@sed -n 's/^KW("\([a-z]\{1,\}\)".\{1,\}$$/"\1"/p' parser/keywords.def > $(O)/parser.dict
	@{ cat $(O)/parser.dict; sed -n 's/^ *\(NODE\|SCALAR\|AGG\)(\([a-z_]\{1,\}\),.*/"\2"/p' exec/func.c; } \
	  > $(O)/planner.dict
	@for t in $(FUZZ_BIN); do n=$${t##*/fuzz_}; mkdir -p $(O)/corpus/$$n; \
	  dict=; [ -f $(O)/$$n.dict ] && dict=-dict=$(O)/$$n.dict; \
	  echo "== $$t ($(FUZZ_SECONDS) s)"; \
	  $$t $$dict -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(O)/corpus/$$n tests/fuzz/corpus/$$n \
	    || exit 1; done

# Benchmark programs (bench/*.c); bench/README.md says how to run each.
benchmarks: $(BENCH_BIN)

unit: $(UNIT_BIN)
	@tests/run_unit.sh $(UNIT_BIN)

# The build steps of test and run use every core (make's -j is not passed
# down when the user typed none).
JOBS := $(shell nproc 2>/dev/null || echo 2)

test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all $(UNIT_BIN) $(TOOL_BIN) $(FUZZ_BIN)
	@BIN=$(BIN) O=$(O) tests/run_all.sh

run: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	exec $(BIN)/sluiced -c configs/sluiced.conf -c startup_file=configs/examples/demo.sql

# The C sources as .clang-format wants them (format rewrites, format-check
# only reports; make test runs the check).
format:
	git ls-files '*.c' '*.h' | xargs clang-format -i

format-check:
	@tests/checks/format.sh

# configs/sluiced.conf is generated from the key table in server/config_keys.def.
check-config: $(BIN)/sluiced
	$(BIN)/sluiced --describe-config | diff -u configs/sluiced.conf -

clean:
	rm -rf build bin tests/results

-include $(shell find $(O) -name '*.d' 2>/dev/null)
