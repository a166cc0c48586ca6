# stairs -- a live staircase scheduler: daemon, client, workload.
#
# make / make all      build stairsd, stairs, stairs-load here
# make run             install missing packages, build, start the client
# make test            unit + end-to-end tests, then again under ASan+UBSan
# make bench           benchmark tables
# make install         PREFIX=/usr/local DESTDIR=
#
# Sources are found by wildcard: src/*.c is the daemon's library (less the
# two mains), ui/*.c the client's (less its main), tests/test_*.c are cmocka
# units, tests/bench_*.c benchmarks, tests/e2e_*.sh end-to-end scripts.

VERSION		= 0.1.0
PREFIX		?= /usr/local
DESTDIR		?=
PKGS		= ncursesw libevent libconfig
TEST_PKGS	= cmocka

# SAN=1 builds everything with AddressSanitizer and UBSan into build/asan.
ifeq ($(SAN),1)
BUILD		?= build/asan
BIN		?= build/asan
SANFLAGS	= -fsanitize=address,undefined -fno-omit-frame-pointer \
		  -fno-sanitize-recover=all
OPT		= -O1 -g
else
BUILD		?= build/obj
BIN		?= .
SANFLAGS	=
OPT		= -O2 -g
endif

CC		?= cc
WARN		= -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
		  -Wmissing-prototypes -Wpointer-arith -Wno-unused-parameter
PKG_CFLAGS	:= $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS	:= $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_CFLAGS	:= $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS	:= $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)
CFLAGS		+= -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(SANFLAGS) \
		  -DSTAIRS_VERSION='"$(VERSION)"' -Isrc -Iui $(PKG_CFLAGS) -MMD -MP
LDFLAGS		+= $(SANFLAGS)
LDLIBS		+= $(PKG_LIBS) -lm

MAINS		= src/stairsd.c src/load.c
LIB_SRCS	:= $(filter-out $(MAINS),$(wildcard src/*.c))
UI_MAIN		= ui/stairs.c
UI_SRCS		:= $(filter-out $(UI_MAIN),$(wildcard ui/*.c))
TEST_SRCS	:= $(wildcard tests/test_*.c)
BENCH_SRCS	:= $(wildcard tests/bench_*.c)
GEN_SRCS	= $(BUILD)/gen/demo_scenario.c

LIB		= $(BUILD)/libstairs.a
UILIB		= $(BUILD)/libstairsui.a
LIB_OBJS	= $(LIB_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/gen/demo_scenario.o
UI_OBJS		= $(UI_SRCS:%.c=$(BUILD)/%.o)
PROGS		= $(BIN)/stairsd $(BIN)/stairs-load \
		  $(if $(wildcard $(UI_MAIN)),$(BIN)/stairs)
TESTS		= $(TEST_SRCS:tests/%.c=$(BUILD)/t/%)
BENCHES		= $(BENCH_SRCS:tests/%.c=$(BUILD)/t/%)

.PHONY: all run test check bench bench-run clean install deps
all: $(PROGS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The demo scenario is compiled in, so the client can start it from anywhere.
$(BUILD)/gen/demo_scenario.c: scenarios/demo.cfg tests/embed.sh
	@mkdir -p $(dir $@)
	sh tests/embed.sh scenarios/demo.cfg stairs_demo_scenario > $@

$(BUILD)/gen/demo_scenario.o: $(BUILD)/gen/demo_scenario.c
	$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(UILIB): $(UI_OBJS) $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN)/stairsd: $(BUILD)/src/stairsd.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BIN)/stairs-load: $(BUILD)/src/load.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BIN)/stairs: $(BUILD)/ui/stairs.o $(UILIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/t/%: $(BUILD)/tests/%.o $(UILIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(TEST_LIBS)

# Everything needed to run the suite from $(BIN).
check: $(PROGS) $(TESTS)
	sh tests/run.sh $(BIN) $(BUILD)/t

# Unit and end-to-end tests, plain and then under the sanitizers.
test: deps
	$(MAKE) check
	$(MAKE) SAN=1 check

# run, test and bench install the packages first, then build in a new make:
# PKG_CFLAGS and PKG_LIBS ask pkg-config when the Makefile is read, which
# on a fresh machine is before deps has installed pkg-config and the
# libraries (tests/fresh_machine.sh checks this).
bench: deps
	$(MAKE) bench-run

bench-run: $(PROGS) $(BENCHES)
	@for b in $(BENCHES); do echo "== $$b"; ./$$b || exit 1; done
	@for b in tests/bench_*.sh; do [ -e "$$b" ] || continue; echo "== $$b"; \
		STAIRS_BIN=$(BIN) sh $$b || exit 1; done

run: deps
	$(MAKE) all
	./stairs

deps:
	@sh tests/deps.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/stairs/scenarios \
		$(DESTDIR)$(PREFIX)/share/stairs/config
	install -m 755 $(PROGS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 scenarios/*.cfg $(DESTDIR)$(PREFIX)/share/stairs/scenarios/
	install -m 644 config/*.cfg $(DESTDIR)$(PREFIX)/share/stairs/config/

clean:
	rm -rf build stairsd stairs stairs-load

-include $(shell find build -name '*.d' 2>/dev/null)
