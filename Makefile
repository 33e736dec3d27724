# pagebench: a bootable x86-64 page clear/copy benchmark.
#   make          kernel (build/pagebench.elf), ISO (build/pagebench.iso), host tools
#   make run      boot it under QEMU, show and save the serial log
#   make test     all tests; ends with "N passed, N failed, N skipped"
#   make bench    pagebench-linux beside perf bench mem, figures only
#   make module   build/module/pagebench.ko, against KDIR's kernel headers
# Missing Debian packages are installed when run as root (scripts/deps).
#
# Sources by layer: boot/ and kernel/ are the ring-0 host, harness/ is the
# benchmark itself (compiled once for the kernel and once for user space),
# variants/ the measured routines, linux/ the harness's user-space host
# (pagebench-linux), module/ its host as a Linux kernel module (pagebench.ko),
# host/ the other user-space tools.

CC	?= gcc
NASM	?= nasm
LD	?= ld
OBJCOPY	?= objcopy
AR	?= ar
PYTHON	?= python3

B := build
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
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

HARNESS_C   := $(wildcard harness/*.c) variants/table.c variants/strings.c
# The screen font, generated from a Debian console font (scripts/psf2c).
FONT_C      := $(B)/gen/font.c
KERNEL_C    := $(wildcard kernel/*.c) $(HARNESS_C) $(FONT_C)
BOOT_ASM    := $(wildcard boot/*.asm)
VARIANT_ASM := $(wildcard variants/*.asm)
# The harness's own assembly: suite=strings' timed loops.
HARNESS_ASM := $(wildcard harness/*.asm)

# Kernel objects live under build/k/, host objects of the same sources
# under build/h/: the flags differ (freestanding, no SSE in C).
KOBJ := $(patsubst %.c,$(B)/k/%.o,$(KERNEL_C)) \
	$(patsubst %.asm,$(B)/k/%.o,$(BOOT_ASM) $(VARIANT_ASM) $(HARNESS_ASM))
VARIANT_OBJ := $(patsubst %.asm,$(B)/k/%.o,$(VARIANT_ASM) $(HARNESS_ASM))

# User-space programs link the harness from an archive, so each takes only
# the pieces it calls (pagebench-cpuid needs no suite, hence no host_*()).
HARNESS_LIB := $(B)/h/libharness.a
HARNESS_OBJ := $(patsubst %.c,$(B)/h/%.o,$(HARNESS_C)) $(VARIANT_OBJ)

HOST_BIN := $(B)/host/pagebench-cpuid $(B)/host/pagebench-linux \
	    $(B)/host/test_variants $(B)/host/test_lib $(B)/host/test_cpu \
	    $(B)/host/test_strings $(B)/host/test_strings_run $(B)/host/test_acpi $(B)/host/test_tsc \
	    $(B)/host/test_screen $(B)/host/test_mem $(B)/host/test_smp $(B)/host/test_logfile
LINUX_OBJ := $(patsubst %.c,$(B)/h/%.o,$(wildcard linux/*.c))

.PHONY: all run test bench deps clean module FORCE
# Keep the objects pattern rules make on the way: no rebuild on the next make.
.SECONDARY:
all: $(B)/pagebench.elf $(B)/pagebench.iso $(HOST_BIN)

# Rewritten only when git describe changes, so what prints the version
# is rebuilt exactly then.
$(B)/version: FORCE
	@mkdir -p $(B)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
$(B)/k/kernel/main.o $(B)/h/host/pagebench-cpuid.o $(B)/h/linux/main.o: $(B)/version

$(FONT_C): scripts/psf2c
	@mkdir -p $(dir $@)
	scripts/psf2c -o $@

$(B)/k/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -c -o $@ $<

$(B)/k/%.o: %.asm Makefile
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP -o $@ $<

# NASM 2.16's -MD leaves %include files out of the .d it writes (-M alone
# lists them), so the variants' shared include is named here by hand.
$(patsubst %.asm,$(B)/k/%.o,$(VARIANT_ASM)): $(wildcard variants/*.inc)

$(B)/h/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(HCFLAGS) -c -o $@ $<

# GNU ld links a 64-bit image; QEMU's -kernel only takes a multiboot ELF32,
# so the loadable copy is the same image in an ELF32 container.
$(B)/pagebench64.elf: $(KOBJ) linker.ld
	$(LD) -m elf_x86_64 -n --build-id=none -z noexecstack --no-warn-rwx-segments -T linker.ld -o $@ $(KOBJ)

$(B)/pagebench.elf: $(B)/pagebench64.elf
	$(OBJCOPY) -O elf32-i386 $< $@

$(B)/pagebench.iso: $(B)/pagebench.elf scripts/mkiso
	scripts/mkiso $< $@

$(HARNESS_LIB): $(HARNESS_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

HOST_COMMON := $(B)/h/host/live_cpuid.o $(B)/h/host/cpuid_dump.o $(HARNESS_LIB)

# The archive last: kernel objects a test adds below may need harness code.
$(B)/host/test_%: $(B)/h/tests/host/test_%.o $(B)/h/tests/host/abi.o $(HOST_COMMON)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(filter-out $(HARNESS_LIB),$^) $(HARNESS_LIB)

# Kernel code that is pure (no ring 0), tested on the host.
$(B)/host/test_acpi: $(B)/h/kernel/acpi.o
$(B)/host/test_logfile: $(B)/h/kernel/log_keep.o $(B)/h/kernel/efi_path.o
$(B)/host/test_tsc: $(B)/h/kernel/amd_pstate.o
$(B)/host/test_mem: $(B)/h/kernel/mem.o
$(B)/host/test_smp: $(B)/h/kernel/smp_plan.o
# The screen's layout, drawing and page-table code, on buffers of the test's own.
$(B)/host/test_screen: $(B)/h/kernel/screen.o $(B)/h/kernel/screen_log.o \
	$(B)/h/kernel/fb.o $(B)/h/kernel/paging.o $(B)/h/$(FONT_C:.c=.o)

$(B)/host/pagebench-cpuid: $(B)/h/host/pagebench-cpuid.o $(HOST_COMMON)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^

$(B)/host/pagebench-linux: $(LINUX_OBJ) $(HOST_COMMON)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^

# The kernel module: Kbuild wants every source under its M= directory, so
# build/module/ gets links to them, and the variant tables with module/'s
# rows appended (one table, whose module-only rows exist only there).
# module/Kbuild assembles the nasm files itself.
KDIR	?= /lib/modules/$(shell uname -r)/build
MOD	:= $(B)/module
MOD_SRC	:= $(HARNESS_C) $(VARIANT_ASM) $(HARNESS_ASM) \
	   $(wildcard harness/*.h harness/*.def variants/*.h variants/*.inc \
	   module/*.c module/*.h module/*.def module/compat/*.h)
MOD_LINKS := $(addprefix $(MOD)/,$(MOD_SRC))
MOD_DEFS  := $(addprefix $(MOD)/variants/,clear.def copy.def strings.def)

$(MOD)/Kbuild: module/Kbuild
	@mkdir -p $(dir $@)
	ln -sf $(abspath $<) $@

$(MOD_LINKS): $(MOD)/%: %
	@mkdir -p $(dir $@)
	ln -sf $(abspath $<) $@

$(MOD_DEFS): $(MOD)/variants/%.def: variants/%.def module/%.def
	@mkdir -p $(dir $@)
	cat $^ > $@

module: $(MOD)/Kbuild $(MOD_LINKS) $(MOD_DEFS) $(B)/version
	@if [ ! -f $(KDIR)/Makefile ]; then \
		echo "make module: no kernel headers at $(KDIR)" >&2; \
		echo "make module: install linux-headers-$$(uname -r), or give KDIR=; installed:" \
			$$(ls -d /usr/src/linux-headers-* 2>/dev/null | grep -v common) >&2; \
		exit 1; \
	fi
	@find $(MOD) -xtype l -delete	# links to sources that are gone
	$(MAKE) -C $(KDIR) M=$(abspath $(MOD)) PB_VERSION=$(VERSION) NASM=$(NASM) modules

deps:
	@scripts/deps $(DEPS_FOR)

run: DEPS_FOR = run
run: deps all
	scripts/run-qemu $(RUN_ARGS)

test: DEPS_FOR = test
test: deps all
	tests/run

bench: DEPS_FOR = run
bench: deps all
	scripts/bench-vs-perf $(BENCH_ARGS)

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
