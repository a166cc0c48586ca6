# stairs -- a live staircase scheduler: daemon, client, workload.
#
# make / make all      build stairsd, stairs, stairs-load here
# make run             install missing packages, build, start the client
# make test            unit + end-to-end tests, then again under ASan+UBSan
# make bench           benchmark tables
# make fuzz            libFuzzer harnesses, FUZZ_TIME s each (clang)
# make install         PREFIX=/usr/local DESTDIR= (make uninstall: the same)
# make deb             a Debian package in build/deb (debhelper)
#
# The layers of src/, lowest first (docs/ENGINE.md, "Layers"): each is
# its own archive, compiled with the headers of itself and the layers
# below only, and linked alone against those (make layers, below), so a
# call or an #include that reaches up fails the build.  ui/ sees base/
# and wire/ only.  tests/test_*.c are cmocka units, tests/bench_*.c
# benchmarks, tests/e2e_*.sh end-to-end scripts; they see everything.

.DEFAULT_GOAL	:= all
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
		  -DSTAIRS_VERSION='"$(VERSION)"' $(LAYER_INC) $(PKG_CFLAGS) \
		  -MMD -MP
LDFLAGS		+= $(SANFLAGS)
LDLIBS		+= $(PKG_LIBS) -lm

LAYERS		= base core wire scenario session real daemon import
# Each layer's packages (their headers and libraries), besides those of
# the layers below: the engine links with none.
PKGS_scenario	= libconfig
PKGS_daemon	= libevent
PKGS_ui		= ncursesw libevent
layer_pkgs	= $(foreach l,$(1),$(PKGS_$(l)))

MAINS		= src/daemon/main.c src/load/load.c src/import/import.c
UI_MAIN		= ui/stairs.c
UI_SRCS		:= $(filter-out $(UI_MAIN),$(wildcard ui/*.c))
TEST_SRCS	:= $(wildcard tests/test_*.c)
BENCH_SRCS	:= $(wildcard tests/bench_*.c)
GEN_SRCS	= $(BUILD)/gen/builtin_scenarios.c

# The layers, and the headers each sees: its own and those below.
base_BELOW	=
core_BELOW	= base
wire_BELOW	= base core
scenario_BELOW	= base core wire
session_BELOW	= base core wire scenario
real_BELOW	= base core wire scenario session
daemon_BELOW	= base core wire scenario session real
# stairs-import uses base/ and scenario/ only (tests/layers.sh checks its
# includes); scenario/'s headers bring core/'s and wire/'s along.
import_BELOW	= base core wire scenario
ui_BELOW	= base wire
define layer
$(1)_SRCS	:= $$(filter-out $$(MAINS),$$(wildcard src/$(1)/*.c))
$(1)_OBJS	:= $$($(1)_SRCS:%.c=$$(BUILD)/%.o)
$(1)_LIB	:= $$(BUILD)/lib$(1).a
$$($(1)_OBJS): LAYER_INC = $$(foreach l,$$($(1)_BELOW) $(1),-Isrc/$$(l))
$$($(1)_LIB): $$($(1)_OBJS)
	rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer,$(l))))
scenario_OBJS	+= $(BUILD)/gen/builtin_scenarios.o
$(scenario_LIB): $(BUILD)/gen/builtin_scenarios.o
$(BUILD)/gen/builtin_scenarios.o: LAYER_INC = -Isrc/scenario
# Everything else (tests, benchmarks, fuzzers) sees every header.
LAYER_INC	= $(foreach l,$(LAYERS),-Isrc/$(l)) -Iui
UI_OBJS		= $(UI_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/$(UI_MAIN:.c=.o)
$(UI_OBJS): LAYER_INC = -Iui $(foreach l,$(ui_BELOW),-Isrc/$(l))
# Linking: the highest layer first.  ALL_LIBS: the whole of src/.
ALL_LIBS	= $(foreach l,import daemon real session scenario wire core base,$($(l)_LIB))
UI_LIBS		= $(wire_LIB) $(base_LIB)
UILIB		= $(BUILD)/libstairsui.a
PROGS		= $(BIN)/stairsd $(BIN)/stairs-load $(BIN)/stairs-import \
		  $(if $(wildcard $(UI_MAIN)),$(BIN)/stairs)
TESTS		= $(TEST_SRCS:tests/%.c=$(BUILD)/t/%)
BENCHES		= $(BENCH_SRCS:tests/%.c=$(BUILD)/t/%)

.PHONY: all run test check bench bench-run clean install uninstall deps
all: $(PROGS) layers

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Every scenario is compiled in (src/builtin.c), in scenarios/README's
# order, so `load` works and the client starts the demo from anywhere.
$(BUILD)/gen/builtin_scenarios.c: $(wildcard scenarios/*.cfg) \
		scenarios/README tests/embed.sh
	@mkdir -p $(dir $@)
	sh tests/embed.sh scenarios > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/builtin_scenarios.o: $(BUILD)/gen/builtin_scenarios.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(UILIB): $(filter-out $(BUILD)/$(UI_MAIN:.c=.o),$(UI_OBJS))
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/src/daemon/main.o: LAYER_INC = $(foreach l,$(LAYERS),-Isrc/$(l))
$(BIN)/stairsd: $(BUILD)/src/daemon/main.o $(ALL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# stairs-load uses nothing else of src/.
$(BUILD)/src/load/load.o: LAYER_INC =
$(BIN)/stairs-load: $(BUILD)/src/load/load.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

# stairs-import: its layer, on scenario/ and what that stands on.
IMPORT_LIBS	= $(foreach l,import scenario wire core base,$($(l)_LIB))
$(BUILD)/src/import/import.o: LAYER_INC = $(foreach l,$(import_BELOW) import,-Isrc/$(l))
$(BIN)/stairs-import: $(BUILD)/src/import/import.o $(IMPORT_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(call pkg_libs,$(PKGS_scenario)) -lm

# The client: ui/ with wire/ and base/, and nothing else of src/.
$(BIN)/stairs: $(BUILD)/ui/stairs.o $(UILIB) $(UI_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(call pkg_libs,$(PKGS_ui)) -lm

# make layers: each layer's archive linked whole, alone with the layers
# below it and its packages (a stub main), so a call that reaches up is
# an undefined reference; then tests/layers.sh reads the #include graph
# and the engine's purity.  `all` depends on it.
$(BUILD)/gen/stub_main.c:
	@mkdir -p $(dir $@)
	echo 'int main(void); int main(void) { return (0); }' > $@
$(BUILD)/gen/stub_main.o: LAYER_INC =
LAYER_CHECKS	= $(LAYERS:%=$(BUILD)/layers/%) $(BUILD)/layers/ui
$(BUILD)/layers/%: $(BUILD)/gen/stub_main.o $(ALL_LIBS) $(UILIB)
	@mkdir -p $(dir $@)
	@echo "layer $*: linked alone with $(or $($*_BELOW),nothing) below"
	@$(CC) $(LDFLAGS) -o $@ $< -Wl,--whole-archive \
	    $(if $(filter ui,$*),$(UILIB),$($*_LIB)) -Wl,--no-whole-archive \
	    $(foreach l,$(call reverse,$($*_BELOW)),$($(l)_LIB)) \
	    $(call pkg_libs,$(call layer_pkgs,$($*_BELOW) $*)) -lm || { \
	    echo "make: layer $* reaches outside $(or $($*_BELOW),itself)" \
	    "(an undefined reference above names what)" >&2; exit 1; }
reverse		= $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
pkg_libs	= $(if $(1),$(shell pkg-config --libs $(1) 2>/dev/null))
.PHONY: layers
layers: $(LAYER_CHECKS)
	@sh tests/layers.sh $(BUILD)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/t/%: $(BUILD)/tests/%.o $(UILIB) $(ALL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(TEST_LIBS)

# Everything needed to run the suite from $(BIN).  tests/run.sh runs the
# programs in parallel, each with a time limit.  Under SAN=1 the checks
# that sample real processes' timing are skipped (STAIRS_SKIP_TIMING):
# they ran in the plain build, and ASan's slowdown only makes them flaky.
FUZZ_CHECKS	= $(patsubst tests/fuzz/%.c,$(BUILD)/fuzzcheck/%.o,$(wildcard tests/fuzz/fuzz_*.c))
check: $(PROGS) layers $(TESTS) $(FUZZ_CHECKS)
	$(if $(filter 1,$(SAN)),STAIRS_SKIP_TIMING=1 )sh tests/run.sh $(BIN) $(BUILD)/t

# The fuzz harnesses compiled (not linked: that wants clang's libFuzzer)
# with every test, so a harness left behind by a change fails here, not
# first in make fuzz.
$(BUILD)/fuzzcheck/%.o: tests/fuzz/%.c tests/fuzz/fuzz.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

# run, test and bench (and fuzz-build) install the packages first, then
# build in a new make: PKG_CFLAGS and PKG_LIBS ask pkg-config when the
# Makefile is read, which on a fresh machine is before deps has installed
# pkg-config and the libraries (tests/fresh_machine.sh checks this).
run: deps
	$(MAKE) all
	./stairs

# Unit and end-to-end tests, plain and then under the sanitizers; built
# with one job per CPU unless make was given -j.
TEST_J		?= -j$(shell nproc 2>/dev/null || echo 2)
test: deps
	$(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,$(TEST_J)) check
	$(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,$(TEST_J)) SAN=1 check

# make bench also wants rt-tests (cyclictest, in tests/bench_proc.c):
# installed as root when missing; without it those rows are skipped.
bench:
	@sh tests/deps.sh bench
	$(MAKE) bench-run

# bench_daemon compares this stairsd with the one from before the batching
# clock (issue 13), built from git revision OLD_REV into OLD_DIR (named
# after the revision, so another OLD_REV is built anew); without git the
# old column just stays empty.
OLD_REV		?= c2558c0
OLD_DIR		= $(BUILD)/old-$(OLD_REV)
$(OLD_DIR)/stairsd:
	rm -rf $(OLD_DIR) && mkdir -p $(OLD_DIR)
	git archive $(OLD_REV) | tar -x -C $(OLD_DIR)
	$(MAKE) -C $(OLD_DIR) BUILD=build/obj BIN=. SAN= stairsd

# The frames table's old stairsd: before the engine's log of changes;
# the old client (bench_client_scale.sh): OLD_REV's, from before delta.
OLD_FRAMES_REV	?= e256c36
OLD_FRAMES_DIR	= $(BUILD)/old-$(OLD_FRAMES_REV)
$(OLD_FRAMES_DIR)/stairsd:
	rm -rf $(OLD_FRAMES_DIR) && mkdir -p $(OLD_FRAMES_DIR)
	git archive $(OLD_FRAMES_REV) | tar -x -C $(OLD_FRAMES_DIR)
	$(MAKE) -C $(OLD_FRAMES_DIR) BUILD=build/obj BIN=. SAN= stairsd
$(OLD_DIR)/stairs: $(OLD_DIR)/stairsd
	$(MAKE) -C $(OLD_DIR) BUILD=build/obj BIN=. SAN= stairs
# bench_engine's old side: this bench_engine.c against OLD_REV's engine
# (its headers first), so old and new differ in the engine alone.
$(OLD_DIR)/bench_engine: tests/bench_engine.c $(OLD_DIR)/stairsd
	$(CC) -I$(OLD_DIR)/src $(CPPFLAGS) $(filter-out -MMD -MP,$(CFLAGS)) \
		-DBENCH_OLD_ENGINE -o $@ tests/bench_engine.c \
		$(OLD_DIR)/build/obj/libstairs.a $(LDLIBS)

bench-run: $(PROGS) $(BENCHES)
	@$(MAKE) $(OLD_DIR)/stairsd $(OLD_DIR)/stairs $(OLD_DIR)/bench_engine \
		>/dev/null 2>&1 || \
		echo "bench: no old stairsd ($(OLD_REV)) to compare with"
	@$(MAKE) $(OLD_FRAMES_DIR)/stairsd >/dev/null 2>&1 || \
		echo "bench: no old stairsd ($(OLD_FRAMES_REV)) to compare with"
	@for b in $(BENCHES); do echo "== $$b"; \
		STAIRS_OLD_BIN=$$([ -x $(OLD_DIR)/stairsd ] && \
		echo $(OLD_DIR)) STAIRS_OLD_FRAMES_BIN=$$([ -x \
		$(OLD_FRAMES_DIR)/stairsd ] && echo $(OLD_FRAMES_DIR)) \
		./$$b || exit 1; done
	@for b in tests/bench_*.sh; do [ -e "$$b" ] || continue; echo "== $$b"; \
		STAIRS_OLD_CLIENT=$$([ -x $(OLD_DIR)/stairs ] && \
		echo $(OLD_DIR)) STAIRS_BIN=$(BIN) sh $$b || exit 1; done

deps:
	@sh tests/deps.sh

# make install: the programs, the man pages, the scenarios (also built
# in), the example configuration and bash completion (one file under
# each program's name, where bash-completion looks) under
# $(DESTDIR)$(PREFIX); an
# installed stairsd finds its scenarios by name and stairs-load from
# there (src/paths.c).  make uninstall removes exactly those files, and
# the share/stairs directories.  tests/e2e_install.sh checks both.
BINDIR		?= $(PREFIX)/bin
DATADIR		?= $(PREFIX)/share/stairs
MANDIR		?= $(PREFIX)/share/man
COMPDIR		?= $(PREFIX)/share/bash-completion/completions
INST_PROGS	= stairsd stairs stairs-load stairs-import
INST_MAN	= man/stairs.1 man/stairs-load.1 man/stairs-import.1 \
		  man/stairs-scenario.5 \
		  man/stairs-protocol.7 man/stairsd.8
INST_SCEN	= $(wildcard scenarios/*.cfg) scenarios/README
INST_CONF	= config/stairsd.cfg

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/scenarios \
		$(DESTDIR)$(DATADIR)/config
	install -m 755 $(INST_PROGS:%=$(BIN)/%) $(DESTDIR)$(BINDIR)/
	for m in $(INST_MAN); do s=$${m##*.}; \
		install -d $(DESTDIR)$(MANDIR)/man$$s && \
		install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; done
	install -m 644 $(INST_SCEN) $(DESTDIR)$(DATADIR)/scenarios/
	install -m 644 $(INST_CONF) $(DESTDIR)$(DATADIR)/config/
	install -d $(DESTDIR)$(COMPDIR)
	for p in $(INST_PROGS); do install -m 644 completion/stairs.bash \
		$(DESTDIR)$(COMPDIR)/$$p || exit 1; done

uninstall:
	rm -f $(INST_PROGS:%=$(DESTDIR)$(BINDIR)/%)
	for m in $(INST_MAN); do s=$${m##*.}; \
		rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m#man/}; done
	rm -f $(INST_SCEN:scenarios/%=$(DESTDIR)$(DATADIR)/scenarios/%)
	rm -f $(INST_CONF:config/%=$(DESTDIR)$(DATADIR)/config/%)
	rm -f $(INST_PROGS:%=$(DESTDIR)$(COMPDIR)/%)
	-rmdir $(DESTDIR)$(DATADIR)/scenarios $(DESTDIR)$(DATADIR)/config \
		$(DESTDIR)$(DATADIR)

# make deb: the Debian package, built by debhelper from debian/ (compat
# 13; debian/rules builds in build/debian, runs the units that need no
# daemon or real process, and installs with make install PREFIX=/usr)
# with dpkg-buildpackage -us -uc -b, which leaves its files in ../; they
# are moved to build/deb: stairs_VERSION_ARCH.deb, its .buildinfo and
# .changes and the dbgsym package.  --post-clean leaves no build output
# in debian/.  Install it with apt-get install ./build/deb/stairs_*.deb.
# tests/deps.sh deb installs debhelper and dpkg-dev when missing;
# tests/e2e_deb.sh checks debian/, .ci/run builds, lints and installs it.
DEB_DIR		= build/deb

.PHONY: deb deb-build
deb:
	@sh tests/deps.sh deb
	$(MAKE) deb-build

deb-build:
	@v=$$(dpkg-parsechangelog -S Version) && \
	a=$$(dpkg --print-architecture) && \
	changes=../stairs_$${v}_$$a.changes && \
	rm -f $$changes && \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    dpkg-buildpackage -us -uc -b -Jauto --post-clean && \
	mkdir -p $(DEB_DIR) && \
	for f in $$(sed -n '/^Files:/,/^[^ ]/s/^ .* //p' $$changes) \
	    $${changes#../}; do mv ../$$f $(DEB_DIR)/ || exit 1; done && \
	echo "make deb: $(DEB_DIR)/stairs_$${v}_$$a.deb"

# make fuzz: the libFuzzer harnesses tests/fuzz/fuzz_*.c (docs/FUZZING.md),
# built with clang into build/fuzz, each run FUZZ_TIME seconds on its seeds
# (tests/fuzz/seed.sh) and its kept regressions (tests/fuzz/corpus/NAME).
# Any crash, leak or sanitizer report fails; the input is kept in
# build/fuzz/artifacts.  FUZZ_TIME=0 only replays the corpora.  The
# library is built by a sub-make with clang.
FUZZ_TIME	?= 60
FUZZ_CC		?= clang
FUZZ_DIR	= build/fuzz
FUZZ_SAN	= -fsanitize=address,undefined -fno-sanitize-recover=all \
		  -fno-omit-frame-pointer
FUZZ_NAMES	:= $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OPTS	?= -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
# libconfig's suppressed leak (tests/fuzz/lsan.supp) makes libFuzzer stop
# for a leak check after most inputs: these fuzz without, 8x faster, then
# replay their whole corpus once with leak checks.
FUZZ_LEAKS_AFTER = config scenario

.PHONY: fuzz fuzz-build
fuzz: fuzz-build
	sh tests/fuzz/seed.sh $(FUZZ_DIR)/seeds
	@mkdir -p $(FUZZ_DIR)/artifacts
	@export LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp:print_suppressions=0; \
	for n in $(FUZZ_NAMES); do \
		echo "== fuzz_$$n $(if $(filter 0,$(FUZZ_TIME)),replay,for $(FUZZ_TIME) s)"; \
		mkdir -p $(FUZZ_DIR)/corpus/$$n tests/fuzz/corpus/$$n; \
		late=; case " $(FUZZ_LEAKS_AFTER) " in *" $$n "*) \
		    late=-detect_leaks=0;; esac; \
		nice -n 10 $(FUZZ_DIR)/fuzz_$$n $(FUZZ_OPTS) $$late \
		    $(if $(filter 0,$(FUZZ_TIME)),-runs=0,-max_total_time=$(FUZZ_TIME)) \
		    -artifact_prefix=$(FUZZ_DIR)/artifacts/$$n- \
		    $$(test -f tests/fuzz/$$n.dict && \
		    echo -dict=tests/fuzz/$$n.dict) \
		    $(FUZZ_DIR)/corpus/$$n $(FUZZ_DIR)/seeds/$$n \
		    tests/fuzz/corpus/$$n || exit 1; \
		[ -z "$$late" ] && continue; \
		echo "== fuzz_$$n: its corpus again, checking for leaks"; \
		find $(FUZZ_DIR)/corpus/$$n $(FUZZ_DIR)/seeds/$$n \
		    tests/fuzz/corpus/$$n -type f | \
		    xargs -n 200 nice -n 10 $(FUZZ_DIR)/fuzz_$$n \
		    -artifact_prefix=$(FUZZ_DIR)/artifacts/$$n- >/dev/null \
		    2>$(FUZZ_DIR)/$$n-leaks.log || { \
		    cat $(FUZZ_DIR)/$$n-leaks.log; exit 1; }; \
	done

fuzz-build: deps
	@echo 'int LLVMFuzzerTestOneInput(void) { return 0; }' | \
	    $(FUZZ_CC) -fsanitize=fuzzer -x c -o /dev/null - || { echo \
	    "make fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer (Debian:" \
	    "apt-get install clang libclang-rt-dev)"; exit 1; }
	$(MAKE) CC=$(FUZZ_CC) BUILD=$(FUZZ_DIR)/obj BIN=$(FUZZ_DIR) \
	    OPT="-O1 -g" SANFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" \
	    $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(UILIB) $(ALL_LIBS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(UILIB) \
	    $(ALL_LIBS) $(LDLIBS)

# Also what an interrupted make deb leaves in debian/ (debian/rules
# clean removes the same with dh_clean).
clean:
	rm -rf build stairsd stairs stairs-load stairs-import
	rm -rf debian/.debhelper debian/stairs debian/tmp debian/files \
		debian/*.substvars debian/debhelper-build-stamp

# The dependency files of this tree's builds; not those of the old tree
# bench-run builds, whose paths are relative to that tree.
-include $(shell find build -name '*.d' -not -path '*/old-*' 2>/dev/null)
