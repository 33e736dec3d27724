# pagebench: a bootable x86-64 page clear/copy benchmark.
#   make          kernel (build/pagebench.elf), ISO (build/pagebench.iso), user-space programs
#   make run      boot it under QEMU, save the serial log; on a terminal a progress
#                 line, the answer and where the log is
#   make test     all tests; ends with "N passed, N failed, N skipped"
#   make unit-tests  the C unit tests (tests/unit/) in build/tests/, which make test builds
#   make bench    pagebench-linux beside perf bench and likwid-bench, figures only
#   make module   build/module/pagebench.ko, against KDIR's kernel headers
#   V=1           every command as it runs, and make run's serial log as it comes
#   make fuzz     each fuzz target of tests/fuzz/ for FUZZ_SECONDS (clang, libFuzzer)
# Missing Debian packages are installed when run as root (scripts/deps).
#
# Sources by layer, lowest first (docs/hacking.md, "Layout"): lib/, cpu/,
# variants/ and harness/ (its options/, stats/, measure/ with suites/,
# decide/, render/ and the run sequence on top) are compiled for every host; boot/ and kernel/ are the ring-0 host, linux/ the user-space host
# (pagebench-linux), module/ the host as a Linux kernel module
# (pagebench.ko), tools/ pagebench-cpuid, pagebench-core-probe, pagebench-store-value
# and pagebench-decide.

CC	?= gcc
NASM	?= nasm
LD	?= ld
OBJCOPY	?= objcopy
AR	?= ar
PYTHON	?= python3

B := build

# Without V=1, commands are not echoed: each stage says one line,
# stage_text_NAME, the first time one of its recipes runs (the recipe
# line $(call stage,NAME); make expands a recipe just before it runs it,
# so the first expansion in this make prints and the next ones are empty).
V ?= 0
ifeq ($(V),1)
Q :=
stage =
else
Q := @
stage = $(if $(stage_started_$1),,$(eval stage_started_$1 := 1)@echo '$(stage_text_$1)')
endif
stage_text_image := build: kernel and ISO ($(B)/pagebench.elf, $(B)/pagebench.iso)
stage_text_tools := build: tools ($(B)/bin/)
stage_text_tests := build: unit tests ($(B)/tests/)
stage_text_module := build: module ($(B)/module/pagebench.ko)
# One lookup for the build and every script's --version.
VERSION := $(shell scripts/version)
# Reproducible builds: every date in the ISO comes from the commit.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export SOURCE_DATE_EPOCH

WARN	:= -Wall -Wextra
# -MMD -MP: each object records the headers it read, in a .d file beside it.
DEPFLAGS := -MMD -MP
KCFLAGS	:= -std=gnu11 -O2 $(WARN) $(DEPFLAGS) -I. -ffreestanding -fno-pic -fno-pie \
	   -fno-stack-protector -fno-asynchronous-unwind-tables \
	   -mno-red-zone -mno-sse -mno-mmx -mno-80387 -mcmodel=small \
	   -ffile-prefix-map=$(CURDIR)=. -DPB_VERSION='"$(VERSION)"'
HCFLAGS	:= -std=gnu11 -O2 -g $(WARN) $(DEPFLAGS) -I. -ffile-prefix-map=$(CURDIR)=. \
	   -DPB_VERSION='"$(VERSION)"'
NASMFLAGS := -f elf64 -Wall

# The selection rules as C tables (scripts/rules2c), for the answer lines (harness/decide/answer.c).
RULES_C     := $(B)/gen/rules.c
# Every layer below the hosts, compiled once for the kernel and once for
# user space (docs/hacking.md, "Layout").
# The factors of the epoch intervals, computed by scripts/interval-constants.
INTERVAL_C  := $(B)/gen/interval_table.c
HARNESS_C   := $(wildcard lib/*.c cpu/*.c variants/*.c harness/*.c harness/*/*.c harness/*/*/*.c) \
	       $(RULES_C) $(INTERVAL_C)
# The screen font, generated from a Debian console font (scripts/psf2c).
FONT_C      := $(B)/gen/font.c
KERNEL_C    := $(shell find kernel -name '*.c') $(HARNESS_C) $(FONT_C)
BOOT_ASM    := $(wildcard boot/*.asm) $(shell find kernel -name '*.asm')
VARIANT_ASM := $(wildcard variants/*.asm)
# The harness's own assembly: the vector price's live registers, suite=strings' timed loops.
HARNESS_ASM := $(wildcard harness/*.asm harness/*/*.asm harness/*/*/*.asm)

# Kernel objects live under build/k/, user-space objects of the same
# sources under build/h/: the flags differ (freestanding, no SSE in C).
KOBJ := $(patsubst %.c,$(B)/k/%.o,$(KERNEL_C)) \
	$(patsubst %.asm,$(B)/k/%.o,$(BOOT_ASM) $(VARIANT_ASM) $(HARNESS_ASM))
VARIANT_OBJ := $(patsubst %.asm,$(B)/k/%.o,$(VARIANT_ASM) $(HARNESS_ASM))

# User-space programs link the harness from an archive, so each takes only
# the pieces it calls (pagebench-cpuid needs no suite, hence no host_*()).
HARNESS_LIB := $(B)/h/libharness.a
HARNESS_OBJ := $(patsubst %.c,$(B)/h/%.o,$(HARNESS_C)) $(VARIANT_OBJ)

# build/bin holds what a user runs; the unit tests live apart, built by make test.
UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_*.c))
BIN := $(B)/bin/pagebench-cpuid $(B)/bin/pagebench-linux \
	$(B)/bin/pagebench-linux-static $(B)/bin/pagebench-core-probe $(B)/bin/pagebench-store-value $(B)/bin/pagebench-decide
LINUX_OBJ := $(patsubst %.c,$(B)/h/%.o,$(wildcard linux/*.c))

# Plain make on a machine without the tools names the script that
# installs them, rather than failing on the first missing one. run, test
# and bench install them first themselves (their deps prerequisite).
NEEDED_TOOLS := $(CC) $(NASM) $(LD) $(OBJCOPY) $(AR) $(PYTHON) grub-mkrescue xorriso mformat
NEEDED_FILES := /usr/share/consolefonts/Uni2-VGA16.psf.gz
MISSING := $(foreach t,$(NEEDED_TOOLS),$(if $(shell command -v $(t) 2>/dev/null),,$(t))) \
	   $(foreach f,$(NEEDED_FILES),$(if $(wildcard $(f)),,$(f)))
ifneq ($(strip $(MISSING)),)
ifeq ($(filter deps clean run test bench fuzz module,$(MAKECMDGOALS)),)
$(error missing $(strip $(MISSING)): run scripts/deps (as root it installs what is missing, otherwise it prints the apt-get command), or make run, which does)
endif
endif

.PHONY: all run test unit-tests bench fuzz sanitized deps clean module FORCE
# Keep the objects pattern rules make on the way: no rebuild on the next make.
.SECONDARY:
all: $(B)/pagebench.elf $(B)/pagebench.iso $(BIN)

# Rewritten only when git describe changes, so what prints the version
# is rebuilt exactly then.
$(B)/version: FORCE
	@mkdir -p $(B)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
$(B)/k/harness/sequence.o $(B)/h/harness/sequence.o $(B)/h/tools/pagebench-cpuid.o $(B)/h/linux/main.o: $(B)/version

$(FONT_C): scripts/psf2c
	@mkdir -p $(dir $@)
	$(Q)scripts/psf2c -o $@

$(INTERVAL_C): scripts/interval-constants
	@mkdir -p $(dir $@)
	$(Q)scripts/interval-constants -o $@

$(RULES_C): scripts/rules2c scripts/rulesfile.py rules/selection.rules rules/synthetic.rules
	@mkdir -p $(dir $@)
	$(Q)scripts/rules2c -o $@

$(B)/k/%.o: %.c Makefile
	$(call stage,image)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(KCFLAGS) -c -o $@ $<

# The variants' and the suites' assembly is the tools' too (VARIANT_OBJ).
$(B)/k/%.o: %.asm Makefile
	$(call stage,$(if $(filter $(VARIANT_OBJ),$@),tools,image))
	@mkdir -p $(dir $@)
	$(Q)$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP -o $@ $<

# NASM 2.16's -MD leaves %include files out of the .d it writes (-M alone
# lists them), so the variants' shared include is named here by hand.
$(patsubst %.asm,$(B)/k/%.o,$(VARIANT_ASM)): $(wildcard variants/*.inc)

# User-space objects of tests/ and kernel/, and the font, serve only the unit tests.
$(B)/h/%.o: %.c Makefile
	$(call stage,$(if $(filter $(B)/h/tests/% $(B)/h/kernel/% $(B)/h/$(FONT_C:.c=.o),$@),tests,tools))
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(HCFLAGS) -c -o $@ $<

# GNU ld links a 64-bit image; QEMU's -kernel only takes a multiboot ELF32,
# so the loadable copy is the same image in an ELF32 container.
$(B)/pagebench64.elf: $(KOBJ) linker.ld
	$(call stage,image)
	$(Q)$(LD) -m elf_x86_64 -n --build-id=none -z noexecstack --no-warn-rwx-segments -T linker.ld -o $@ $(KOBJ)

$(B)/pagebench.elf: $(B)/pagebench64.elf
	$(Q)$(OBJCOPY) -O elf32-i386 $< $@

$(B)/pagebench.iso: $(B)/pagebench.elf scripts/mkiso
	$(call stage,image)
	$(Q)scripts/mkiso $< $@

$(HARNESS_LIB): $(HARNESS_OBJ)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

TOOLS_COMMON := $(B)/h/tools/cpuid_dump.o $(HARNESS_LIB)

# The archive last: kernel objects a test adds below may need harness code.
$(B)/tests/test_%: $(B)/h/tests/unit/test_%.o $(B)/h/tests/unit/abi.o $(TOOLS_COMMON)
	@mkdir -p $(dir $@)
	$(call stage,tests)
	$(Q)$(CC) -o $@ $(filter-out $(HARNESS_LIB),$^) $(HARNESS_LIB)

# Tests that run a suite: user space's host of ring 0's means (linux/host_ring0.c).
$(B)/tests/test_sample $(B)/tests/test_strings_run: $(B)/h/linux/host_ring0.o
# suite=scrub's per-node memory check, on a made-up sysfs.
$(B)/tests/test_node_mem: $(B)/h/linux/node_mem.o

# Kernel code that is pure (no ring 0), tested in user space.
$(B)/tests/test_acpi: $(B)/h/kernel/acpi/tables.o
$(B)/tests/test_logfile: $(B)/h/kernel/efi/log_keep.o $(B)/h/kernel/efi/efi_path.o
$(B)/tests/test_tsc: $(B)/h/kernel/time/amd_pstate.o
$(B)/tests/test_mem: $(B)/h/kernel/boot/mem.o
$(B)/tests/test_smp: $(B)/h/kernel/smp/start_plan.o
# The screen's layout, drawing and page-table code, on buffers of the test's own.
$(B)/tests/test_screen: $(B)/h/kernel/screen/screen.o $(B)/h/kernel/screen/log_routing.o \
	$(B)/h/kernel/screen/fb.o $(B)/h/kernel/screen/answer_page.o \
	$(B)/h/kernel/x86/paging.o $(B)/h/$(FONT_C:.c=.o)

$(B)/bin/pagebench-cpuid: $(B)/h/tools/pagebench-cpuid.o $(TOOLS_COMMON)
	@mkdir -p $(dir $@)
	$(call stage,tools)
	$(Q)$(CC) -o $@ $^

# The answer of a log without answer lines, by the run's own engine (scripts/pagebench-report).
# pagebench-decide's other parts, which tests/fuzz/decide.c takes with its main file.
DECIDE_PARTS := tools/answer_lines.c tools/decide_combine.c tools/decide_compare.c
$(B)/bin/pagebench-decide: $(B)/h/tools/pagebench-decide.o \
	$(patsubst %.c,$(B)/h/%.o,$(DECIDE_PARTS)) $(HARNESS_LIB)
	@mkdir -p $(dir $@)
	$(call stage,tools)
	$(Q)$(CC) -o $@ $^

# Whether the value stored changes the speed (docs/method.md, "The peers' state").
$(B)/bin/pagebench-store-value: $(B)/h/tools/pagebench-store-value.o $(HARNESS_LIB)
	@mkdir -p $(dir $@)
	$(call stage,tools)
	$(Q)$(CC) -o $@ $^

# What the core gives this CPU over minutes (docs/method.md, "Ratios"): no harness.
$(B)/bin/pagebench-core-probe: $(B)/h/tools/pagebench-core-probe.o
	@mkdir -p $(dir $@)
	$(call stage,tools)
	$(Q)$(CC) -o $@ $^ -lm

$(B)/bin/pagebench-linux: $(LINUX_OBJ) $(HARNESS_LIB)
	@mkdir -p $(dir $@)
	$(call stage,tools)
	$(Q)$(CC) -o $@ $^

# The same program linked statically: one file to copy to any x86-64
# Linux of a fleet (docs/running.md, "A fleet"), whatever its libc.
$(B)/bin/pagebench-linux-static: $(LINUX_OBJ) $(HARNESS_LIB)
	@mkdir -p $(dir $@)
	$(call stage,tools)
	$(Q)$(CC) -static -o $@ $^

# The kernel module: Kbuild wants every source under its M= directory, so
# build/module/ gets links to them, and the variant tables with module/'s
# rows appended (one table, whose module-only rows exist only there).
# module/Kbuild assembles the nasm files itself.
KDIR	?= /lib/modules/$(shell uname -r)/build
MOD	:= $(B)/module
MOD_SRC	:= $(HARNESS_C) $(VARIANT_ASM) $(HARNESS_ASM) \
	   $(wildcard lib/*.h cpu/*.h variants/*.h variants/*.inc variants/passes.def variants/suites.def \
	   harness/*.h harness/*/*.h harness/*/*/*.h module/*.c module/*.h module/*.def module/*.asm \
	   module/compat/*.h)
MOD_LINKS := $(addprefix $(MOD)/,$(MOD_SRC))
MOD_DEFS  := $(addprefix $(MOD)/variants/,clear.def copy.def strings.def)

$(MOD)/Kbuild: module/Kbuild
	@mkdir -p $(dir $@)
	$(call stage,module)
	$(Q)ln -sf $(abspath $<) $@

$(MOD_LINKS): $(MOD)/%: %
	@mkdir -p $(dir $@)
	$(call stage,module)
	$(Q)ln -sf $(abspath $<) $@

$(MOD_DEFS): $(MOD)/variants/%.def: variants/%.def module/%.def
	@mkdir -p $(dir $@)
	$(call stage,module)
	$(Q)cat $^ > $@

module: $(MOD)/Kbuild $(MOD_LINKS) $(MOD_DEFS) $(B)/version
	@if [ ! -f $(KDIR)/Makefile ]; then \
		echo "make module: no kernel headers at $(KDIR)" >&2; \
		echo "make module: install linux-headers-$$(uname -r), or give KDIR=; installed:" \
			$$(ls -d /usr/src/linux-headers-* 2>/dev/null | grep -v common) >&2; \
		exit 1; \
	fi
	@find $(MOD) -xtype l -delete	# links to sources that are gone
	@rm -f $(filter-out $(MOD_LINKS),$(shell find $(MOD) -type l -name '*.c'))	# or it does not take
	$(call stage,module)
	$(Q)$(MAKE) -C $(KDIR) M=$(abspath $(MOD)) PB_VERSION=$(VERSION) NASM=$(NASM) modules

deps:
	@scripts/deps $(DEPS_FOR)

# The log goes to build/logs, which git ignores; SAVE=1 keeps it in results/.
# V=1: the serial log as it comes, on a terminal too (run-qemu --raw).
run: DEPS_FOR = run
run: deps all
	$(Q)scripts/run-qemu --answer $(if $(filter 1,$(V)),--raw) $(if $(filter 1,$(SAVE)),--log-dir results) $(RUN_ARGS)

unit-tests: $(UNIT_TESTS)

test: DEPS_FOR = test
test: deps all unit-tests sanitized
	$(Q)tests/run

bench: DEPS_FOR = bench
bench: deps all
	$(Q)scripts/bench-vs-peers $(BENCH_ARGS)

# Fuzzing (tests/fuzz/): pagebench-decide's input and the option parser,
# each a libFuzzer target that clang builds under AddressSanitizer and
# UndefinedBehaviorSanitizer; make fuzz runs each for FUZZ_SECONDS on its
# seeds (tests/fuzz/seeds, and tests/fuzz/regressions/: inputs that once
# failed), keeping what it adds under build/fuzz/corpus/ and what fails
# under build/fuzz/artifacts/. make test needs no clang: make sanitized
# builds the same targets with gcc and the same sanitizers, with a main()
# that runs each seed once (tests/fuzz/test_fuzz_seeds.py), and pagebench-linux
# sanitized (tests/host/test_linux.py runs suite=strings with it).
CLANG	?= clang
FUZZ_SECONDS ?= 60
# The longest input tried: a seed cut there still starts as a machine's
# figures, and short inputs run thousands a second, not a hundred.
FUZZ_MAX_LEN ?= 65536
FUZZ_TARGETS := decide options
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN	:= $(B)/san
FUZZ	:= $(B)/fuzz
SEEDS	:= $(B)/seeds

$(SAN)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(HCFLAGS) $(SANFLAGS) -c -o $@ $<

$(FUZZ)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CLANG) $(HCFLAGS) $(SANFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(SAN)/libharness.a: $(patsubst %.c,$(SAN)/%.o,$(HARNESS_C)) $(VARIANT_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(FUZZ)/libharness.a: $(patsubst %.c,$(FUZZ)/%.o,$(HARNESS_C)) $(VARIANT_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(SAN)/bin/fuzz-%: $(SAN)/tests/fuzz/%.o $(SAN)/tests/fuzz/run_seeds.o \
		$(patsubst %.c,$(SAN)/%.o,$(DECIDE_PARTS)) $(SAN)/libharness.a
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^

$(SAN)/bin/pagebench-linux: $(patsubst %.c,$(SAN)/%.o,$(wildcard linux/*.c)) $(SAN)/libharness.a
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -o $@ $^

$(FUZZ)/bin/%: $(FUZZ)/tests/fuzz/%.o $(patsubst %.c,$(FUZZ)/%.o,$(DECIDE_PARTS)) \
		$(FUZZ)/libharness.a
	@mkdir -p $(dir $@)
	$(CLANG) $(SANFLAGS) -fsanitize=fuzzer -o $@ $^

# Each target's seeds in a folder, made again when what they come from changes.
$(SEEDS)/%.made: tests/fuzz/seeds scripts/pbreport/decided.py tests/boots.cfg \
		$(wildcard tests/fixtures/*/*.log)
	rm -rf $(SEEDS)/$*
	tests/fuzz/seeds $* $(SEEDS)/$*
	touch $@

sanitized: $(addprefix $(SAN)/bin/fuzz-,$(FUZZ_TARGETS)) $(SAN)/bin/pagebench-linux \
	   $(patsubst %,$(SEEDS)/%.made,$(FUZZ_TARGETS))

fuzz: DEPS_FOR = fuzz
fuzz: deps $(addprefix $(FUZZ)/bin/,$(FUZZ_TARGETS)) $(patsubst %,$(SEEDS)/%.made,$(FUZZ_TARGETS))
	@mkdir -p $(FUZZ)/artifacts
	set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ)/corpus/$$t; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		$(FUZZ)/bin/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -print_final_stats=1 \
			-artifact_prefix=$(FUZZ)/artifacts/$$t- $(FUZZ)/corpus/$$t \
			$(SEEDS)/$$t tests/fuzz/regressions/$$t; \
	done

clean:
	$(Q)rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
