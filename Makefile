# pagebench: a bootable x86-64 page clear/copy benchmark.
#   make          kernel (build/pagebench.elf), ISO (build/pagebench.iso), host tools
#   make run      boot it under QEMU, show and save the serial log
#   make test     all tests; ends with "N passed, N failed, N skipped"
# Missing Debian packages are installed when run as root (scripts/deps).

CC	?= gcc
NASM	?= nasm
LD	?= ld
OBJCOPY	?= objcopy
PYTHON	?= python3

B := build
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
# Reproducible builds: every date in the ISO comes from the commit.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export SOURCE_DATE_EPOCH

WARN	:= -Wall -Wextra
KCFLAGS	:= -std=gnu11 -O2 $(WARN) -ffreestanding -fno-pic -fno-pie \
	   -fno-stack-protector -fno-asynchronous-unwind-tables \
	   -mno-red-zone -mno-sse -mno-mmx -mno-80387 -mcmodel=small \
	   -ffile-prefix-map=$(CURDIR)=. -DPB_VERSION='"$(VERSION)"'
HCFLAGS	:= -std=gnu11 -O2 -g $(WARN) -ffile-prefix-map=$(CURDIR)=. \
	   -DPB_VERSION='"$(VERSION)"'
NASMFLAGS := -f elf64 -Wall

KERNEL_C   := $(wildcard kernel/*.c) variants/table.c
BOOT_ASM   := $(wildcard boot/*.asm)
VARIANT_ASM := $(wildcard variants/*.asm)

KERNEL_OBJ := $(patsubst %.c,$(B)/%.o,$(KERNEL_C)) \
	      $(patsubst %.asm,$(B)/%.o,$(BOOT_ASM) $(VARIANT_ASM))
VARIANT_OBJ := $(patsubst %.asm,$(B)/%.o,$(VARIANT_ASM))

# The pieces of kernel/ that need no ring 0, shared with the host programs.
SHARED_C := kernel/cpu.c kernel/describe.c kernel/fmt.c kernel/out.c \
	    kernel/options.c kernel/plan.c variants/table.c

HOST_BIN := $(B)/host/pagebench-cpuid $(B)/host/test_variants $(B)/host/test_lib \
	    $(B)/host/test_cpu

.PHONY: all run test deps clean FORCE
all: $(B)/pagebench.elf $(B)/pagebench.iso $(HOST_BIN)

# Rewritten only when git describe changes, so what prints the version
# is rebuilt exactly then.
$(B)/version: FORCE
	@mkdir -p $(B)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
$(B)/kernel/main.o $(B)/host/pagebench-cpuid: $(B)/version

$(B)/%.o: %.c $(wildcard kernel/*.h variants/*.h variants/*.def) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -c -o $@ $<

$(B)/%.o: %.asm Makefile
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -o $@ $<

# GNU ld links a 64-bit image; QEMU's -kernel only takes a multiboot ELF32,
# so the loadable copy is the same image in an ELF32 container.
$(B)/pagebench64.elf: $(KERNEL_OBJ) linker.ld
	$(LD) -m elf_x86_64 -n --build-id=none -z noexecstack --no-warn-rwx-segments -T linker.ld -o $@ $(KERNEL_OBJ)

$(B)/pagebench.elf: $(B)/pagebench64.elf
	$(OBJCOPY) -O elf32-i386 $< $@

$(B)/pagebench.iso: $(B)/pagebench.elf scripts/mkiso
	scripts/mkiso $< $@

$(B)/host/%: tests/host/%.c $(SHARED_C) host/live_cpuid.c host/cpuid_dump.c $(VARIANT_OBJ) \
		$(wildcard kernel/*.h variants/*.h variants/*.def host/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(HCFLAGS) -o $@ $< $(SHARED_C) host/live_cpuid.c host/cpuid_dump.c $(VARIANT_OBJ)

$(B)/host/pagebench-cpuid: host/pagebench-cpuid.c host/cpuid_dump.c $(SHARED_C) \
		$(VARIANT_OBJ) $(wildcard kernel/*.h variants/*.h variants/*.def host/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(HCFLAGS) -o $@ host/pagebench-cpuid.c host/cpuid_dump.c \
		$(SHARED_C) $(VARIANT_OBJ)

deps:
	@scripts/deps $(DEPS_FOR)

run: DEPS_FOR = run
run: deps all
	scripts/run-qemu $(RUN_ARGS)

test: DEPS_FOR = test
test: deps all
	tests/run

clean:
	rm -rf $(B)
