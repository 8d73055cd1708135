# ipxlab - one GNU Makefile for the library, the ipxlab binary, tests,
# fuzzers, benchmarks, installation and packaging (manual pages, bash
# completion, systemd units, a .deb). `make V=1` shows full commands;
# `SANITIZE=address,undefined make test` builds everything with sanitizers
# in a separate build directory.

CC ?= cc
VERSION := 0.1.0
SANITIZE ?=
# COVERAGE=1 (what `make coverage` sets) builds with gcov instrumentation.
COVERAGE ?=
BUILD ?= build$(if $(COVERAGE),/coverage)$(if $(SANITIZE),/san-$(subst $(comma),-,$(SANITIZE)))
comma := ,

CSTD := -std=c11 -D_GNU_SOURCE
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wformat=2 -Wundef -Wpointer-arith \
        -Wcast-align -Wvla -Werror=implicit-function-declaration
OPT ?= -O2 -g
SANFLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
COVFLAGS := $(if $(COVERAGE),--coverage)
CFLAGS += $(CSTD) $(WARN) $(OPT) $(SANFLAGS) $(COVFLAGS) -Iinclude -MMD -MP
LDFLAGS += $(SANFLAGS) $(COVFLAGS)

ifeq ($(V),1)
Q :=
else
Q := @
endif

# The library, layer by layer (a lower layer never includes a higher one).
LIB_SRC := $(filter-out src/cli/% src/preload/%,$(wildcard src/*/*.c)) \
	build/gen/machines_data.c
CLI_SRC := $(wildcard src/cli/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libipxlab.a
BIN := $(BUILD)/ipxlab

# The AF_IPX shim `ipxlab run` preloads (docs/stack.md): its own files and
# the stack protocol's codec only, as position-independent objects, never
# sanitized (a sanitizer runtime cannot be preloaded behind libc).
PRELOAD_SRC := $(wildcard src/preload/*.c) src/stack/proto.c
PRELOAD_OBJ := $(PRELOAD_SRC:%.c=$(BUILD)/pic/%.o)
PRELOAD := $(BUILD)/libipxlab-preload.so
PIC_CFLAGS := $(filter-out $(SANFLAGS),$(CFLAGS)) -fPIC -fvisibility=hidden

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_HELPERS := $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c))
UNIT_HELPER_OBJ := $(UNIT_HELPERS:%.c=$(BUILD)/%.o)

# Programs the interop scripts run (traffic generators for captures).
TOOL_SRC := $(wildcard tests/interop/*.c)
TOOL_BIN := $(TOOL_SRC:tests/interop/%.c=$(BUILD)/tools/%)

# AF_IPX programs the stack tests run under `ipxlab run`: plain programs
# against glibc's <netipx/ipx.h>, nothing of ipxlab, never sanitized (the
# shim is preloaded ahead of any sanitizer runtime).
STACK_PROG_SRC := $(wildcard tests/stack/*.c)
STACK_PROG := $(STACK_PROG_SRC:tests/stack/%.c=$(BUILD)/tools/%) \
	$(STACK_PROG_SRC:tests/stack/%.c=$(BUILD)/tools/%-fortify)

FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)

.PHONY: all run test unit check-deps deps fuzz fuzz-run bench clean \
	coverage coverage-bins mutate version
# Keep intermediate objects (the unit-test helpers) between runs.
.SECONDARY:

all: $(BIN) $(LIB) $(PRELOAD)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC -fPIC $<")
	$(Q)$(CC) $(PIC_CFLAGS) -c $< -o $@

$(PRELOAD): $(PRELOAD_OBJ)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) -shared -o $@ $^ -ldl

# The period machine files (docs/fidelity.md), built in as text.
MACHINE_FILES := $(sort $(wildcard machines/*.software machines/*.adapter \
	machines/*.machine machines/*.period machines/*.profile))
build/gen/machines_data.c: $(MACHINE_FILES) scripts/embed-machines.sh
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  GEN     $@")
	$(Q)scripts/embed-machines.sh $(MACHINE_FILES) > $@.tmp && mv $@.tmp $@

$(LIB): $(LIB_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# The version and the commit `ipxlab --version` prints (dist.mk finds the
# commit), and the directory the help cites the documents in (DOCDIR,
# dist.mk: install puts docs/ there); rewritten only when they change, so
# main.o is rebuilt only then.
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(dir $@)
	@printf '#define IPXLAB_VERSION "%s"\n#define IPXLAB_COMMIT "%s"\n#define IPXLAB_DOCDIR "%s"\n' \
		'$(VERSION)' '$(COMMIT)' '$(DOCDIR)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/src/cli/main.o $(BUILD)/src/cli/version.o: $(BUILD)/gen/version.h
$(BUILD)/src/cli/main.o $(BUILD)/src/cli/version.o: CFLAGS += -I$(BUILD)/gen

# `ipxlab mount` (docs/mount.md) needs libfuse3 (scripts/install-deps.sh
# installs libfuse3-dev); without its headers ipxlab is built without the
# mount, which then says so.
FUSE_LIBS := $(shell pkg-config --libs fuse3 2>/dev/null)
ifneq ($(FUSE_LIBS),)
$(BUILD)/src/mount/fuse.o: CFLAGS += -DIPXLAB_HAVE_FUSE $(shell pkg-config --cflags fuse3)
endif
# Whether it was there, rewritten only when that changes: a tree built
# before libfuse3-dev was installed rebuilds the mount once it is.
$(BUILD)/gen/fuse.state: FORCE
	@mkdir -p $(dir $@)
	@echo '$(if $(FUSE_LIBS),fuse3 $(FUSE_LIBS),none)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/src/mount/fuse.o: $(BUILD)/gen/fuse.state

$(BIN): $(CLI_OBJ) $(LIB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(FUSE_LIBS) -lm

$(BUILD)/tests/%: tests/unit/%.c $(UNIT_HELPER_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  TEST    $@")
	$(Q)$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(UNIT_HELPER_OBJ) $(LIB) $(LDFLAGS) -lcmocka -lm

$(BUILD)/tools/%: tests/stack/%.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  TOOL    $@")
	$(Q)$(CC) $(CSTD) $(WARN) $(OPT) -o $@ $<

# The same built as distributions build packages: fortified libc calls
# (__read_chk, __recv_chk...) the shim must catch too.
$(BUILD)/tools/%-fortify: tests/stack/%.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  TOOL    $@")
	$(Q)$(CC) $(CSTD) $(WARN) -O2 -D_FORTIFY_SOURCE=2 -o $@ $<

$(BUILD)/tools/%: tests/interop/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  TOOL    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) -lm

# The main job: B1, the 1990 protocol comparison, on a hub and two agents
# this starts on loopback (`ipxlab demo` shows plain datagrams instead),
# then the whole suite in its quick modes (B1-B6: the Network Test Battery
# about 25 s, the bridged network about 20 s), its tables printed and its
# report, plots and index.html in $(BUILD)/report (about a minute in all).
run: $(BIN)
	$(BIN) bench protocols
	rm -rf $(BUILD)/report
	$(BIN) bench suite --quick -o $(BUILD)/report

deps:
	@scripts/install-deps.sh

# Every test: unit (cmocka), integration (real processes on loopback),
# interop (DOSBox, tshark) and a short run of every fuzzer's corpus.
test: deps $(BIN) $(UNIT_BIN) $(TOOL_BIN) $(PRELOAD) $(STACK_PROG)
	@$(if $(SANITIZE),SKIP_FUZZ=1) scripts/run-tests.sh $(BUILD)

unit: $(UNIT_BIN)
	@scripts/run-tests.sh $(BUILD) unit

# Line and branch coverage per module (gcovr), from the unit tests in an
# instrumented build of its own (build/coverage); INTEG=1 runs the
# integration and interop scripts too, SCRIPTS="a_test.sh ..." those
# scripts after the unit tests. Targets: docs/testing.md.
coverage:
	@$(MAKE) --no-print-directory COVERAGE=1 OPT="-O0 -g" coverage-bins
	@scripts/coverage.sh build/coverage $(if $(INTEG),all,unit) $(SCRIPTS)

coverage-bins: $(BIN) $(UNIT_BIN) $(TOOL_BIN)

# Seeded bugs (tests/mutations/), one at a time in a scratch copy of the
# tree: how many the unit tests catch. Slow; not part of `make test`.
mutate:
	@scripts/mutate.sh $(if $(ONLY),--only '$(ONLY)')

# libFuzzer harnesses (clang); `make fuzz-run` runs each briefly. The
# library is compiled once for all of them (instrumented for coverage and
# the sanitizers), then each harness is linked against it.
FUZZ_CFLAGS := $(CSTD) -O1 -g -Iinclude -MMD -MP
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=build/fuzz/obj/%.o)
FUZZ_LIB := build/fuzz/libipxlab-fuzz.a

build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  FUZZCC  $<")
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

build/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB) $(wildcard include/ipxlab/*.h include/ipxlab/priv/*.h tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  FUZZ    $@")
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-o $@ $< $(FUZZ_LIB) -lm

fuzz: $(FUZZ_BIN)

fuzz-run: $(FUZZ_BIN)
	@scripts/run-fuzz.sh

bench: $(BIN)
	$(BIN) bench protocols
	$(BIN) bench hub
	$(BIN) bench spx
	$(BIN) bench netbios
	$(BIN) bench battery
	$(BIN) bench copy
	$(BIN) bench perftest
	$(BIN) bench arrival
	$(BIN) bench wan

clean:
	rm -rf build

.PHONY: FORCE
FORCE:

# install, uninstall, man pages, completion, units, deb, dist (dist.mk).
include dist/dist.mk

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_HELPER_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(PRELOAD_OBJ:.o=.d)
