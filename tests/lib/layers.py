"""The layers of the C tree, as data: every source folder, what it holds,
and what it may include (and so call).

One row per folder, lowest layer first. A folder may include only itself
and what its row names: a folder (every file in it), or one header, which
also admits the symbols of its .c (a narrow interface into a folder the
row does not name). tests/lib/layout.py checks the tree against these rows;
scripts/docs-layout writes docs/hacking.md's Layout table from them
(tests/tree/test_layout.py holds the two equal). Edit the rows here, never the
table in the doc.

Fields: folder (no trailing slash); holds, Markdown, the table's middle
column; includes, folders and headers; notes, {entry: what the table says
after it in parentheses}, None for after the whole list.
"""
import collections

Layer = collections.namedtuple("Layer", "folder holds includes notes")
Layer.__new__.__defaults__ = ({},)

LAYERS = (
    Layer('lib',
          "formatting (`fmt`), the log's lines and their sinks (`out`),"
          " the run's steps, failures and its one end hook (`run`), the"
          ' sort, additions that saturate rather than wrap (`sat.h`), '
          "the user-space programs' exit statuses (`status.h`)",
          ()),
    Layer('cpu',
          'CPUID decoded into a CPU description (`cpu`), its log lines '
          '(`describe`), CPUID on this CPU (`live`), the instructions '
          '(`insn.h`)',
          ('lib',)),
    Layer('variants',
          'the measured routines, one `.asm` per family, and their '
          'tables: `clear.def`, `copy.def`, `strings.def`, whose rows '
          'name their routines (row `sse2` of `clear.def` runs '
          '`clear_sse2`, row `memset, stosb` of `strings.def` runs '
          '`memset_stosb`), so adding a variant is its routine and one '
          '`.def` line; the suites (`suites.def`) and passes '
          '(`passes.def`) they run in, read by `passes`, which the '
          "options name; a row that stands for a kernel's routine cites"
          ' where it was read, and `tests/host/test_routines.py` compares '
          'its instructions with the sequence recorded there '
          '(`tests/fixtures/routines/`); `store.h`, the kinds of store',
          ('cpu', 'lib')),
    Layer('harness/options',
          'the options, from a kernel command line or an argument '
          'vector: `options.h` (all others see), `table` (every key, '
          'the programs that take it, its parser, its default, written '
          'once as a value the parser reads, and what --help says), '
          '`parse` (the driver: defaults, words, and the checks and '
          'defaults of `options_finish()`), `names` and `values` (the '
          'value parsers), `help` (--help, from the table), `words` '
          '(what they share); `internal.h` is private to the folder '
          "(and `tests/unit/test_lib.c`, which checks the table's "
          'defaults). Below the harness and the hosts, which include '
          '`options.h`; above the suites and passes tables it names',
          ('variants', 'cpu', 'lib')),
    Layer('harness/stats',
          "statistics, pure and in integers: a variant's figure over "
          "its epochs and its 95% interval, a ratio's epoch by epoch, "
          'the batch a sample times (`interval`, with the factors '
          '`scripts/interval-constants` generates); what measuring and '
          'deciding both read',
          ('lib',)),
    Layer('harness/measure',
          'measuring: `host.h` (all it asks of the program it runs in, '
          'which each host implements), the plan (`plan`: which passes,'
          ' how large, which variants, and why the others are left out;'
          ' `strings_plan.h`, how suite=strings calls each routine), the'
          ' buffers a host allocates for it (`buffers.h`), the timed '
          'call (`bench`, `timer`), retiming disturbed samples and '
          "summing their cycles (`sample`), epochs, `time=`'s one "
          'budget for a run (`budget`: which pass goes next, and which '
          'stops), progress, the vector price (`vector_price`, with '
          '`vector_live.asm`), and what a run measured, kept for after '
          "it (`record`; suite=strings' figures by size class, "
          '`strings_figures`)',
          ('harness/stats', 'harness/options', 'variants', 'cpu', 'lib')),
    Layer('harness/decide',
          'deciding, in integers, on what a run measured: the selection'
          ' rules of `rules/` evaluated by `rules` on the tables '
          "`scripts/rules2c` generates; one question's decision "
          "(`answer`), a run's (`answers`), memset's, memcpy's and "
          "scrubbing's (`answer_strings`), each pick's bottom line over "
          'its passes (`bottom`), runs and CPU groups combined '
          '(`combine`: `pagebench-decide --combine`), which of several '
          "routines within noise is named (`prefer`); and `time=`'s "
          'race of the questions still open (`race`: which variants are'
          ' still worth measuring), whose question list the rules make '
          '(`questions`): `race.h` is all that measuring sees of this '
          'folder',
          ('harness/measure', 'harness/stats', 'harness/options', 'variants', 'cpu', 'lib')),
    Layer('harness/measure/suites',
          'the suites: `suite.c` runs the one the plan names; the page '
          "suites' run (`page_run.h`, `struct page_run`), whose driver "
          '`suite.c` lets the passes take turns; a pass (`pass`: its '
          'place, reps and figures), its reps (`pass.c`, Ma Ling\'s '
          "`copy_hot_cold`, the peers' `hot_buffer`), `time=`'s race in"
          ' a pass on the question list the run hands it (`pass_race`);'
          " below them the timed call (`call`), the checks (`verify`), "
          "the buffers' slots (`layout`), a pass's figures and stat "
          'lines (`figures`); `scrub`; `strings` (`strings.c` walks its '
          'blocks; `strings_time.c` the timed batches, with their loops '
          'in `strings_loop.asm`; `strings_verify.c` the checks of every'
          " byte; `strings_lines.c` the report lines; what they share in"
          ' `strings_block.h`)',
          ('harness/decide/race.h', 'harness/measure', 'harness/stats', 'harness/options',
           'variants', 'cpu', 'lib')),
    Layer('harness/render',
          'drawing: the answer as a matrix (`matrix`: pass × kernel pick'
          " with each pick's bottom row, drawn once, here, for the "
          "screen's answer page, pagebench-linux's terminal and "
          "`pagebench-report verdict`), and the screen's summary of a "
          "run's record (`summary`: each pass's figures, ranked)",
          ('harness/decide', 'harness/measure', 'harness/stats', 'variants', 'lib')),
    Layer('harness',
          'the run sequence (`sequence`): one run in the order every '
          'host runs it (describe, plan, buffers, vector price, picks, '
          'suites, decisions, answer lines), with what differs given by'
          ' the host (`struct run_host`); it, and everything under '
          '`harness/`, is compiled once per host',
          ('harness/decide', 'harness/measure/suites', 'harness/measure', 'harness/options',
           'cpu', 'lib')),
    Layer('kernel/lib',
          'the freestanding C library (`memset`, `memcpy`)',
          ()),
    Layer('kernel/x86',
          "the CPU's own: GDT, IDT and exception stubs (`trap`, "
          '`isr.asm`), local APIC, page tables (`paging` pure, `map` '
          'live), MSRs, APERF/MPERF, XSAVE, delays',
          ('cpu', 'lib')),
    Layer('kernel/acpi',
          'ACPI tables: parsing (`tables`, pure) and reading them live '
          '(`acpi`)',
          ('kernel/x86', 'lib')),
    Layer('kernel/time',
          "the TSC's rate (`tsc`) and its reference clocks: HPET, PIT, "
          'PM timer, AMD P-states',
          ('kernel/acpi', 'kernel/x86', 'harness/options', 'cpu', 'lib')),
    Layer('kernel/efi',
          'UEFI: taking over the firmware, its file system, the log '
          'saved on the stick',
          ('kernel/x86', 'kernel/lib', 'lib')),
    Layer('kernel/boot',
          'what the loader handed over: `boot_info`, the multiboot v1 '
          'and v2 readers, the memory they describe (`mem`)',
          ('kernel/efi', 'kernel/x86', 'lib')),
    Layer('kernel/smp',
          'every CPU of the MADT: bring-up (`smp`, `trampoline.asm`), '
          'which to start (`start_plan`, pure), the CPU slots '
          '(`cpu_slots`), calls on every CPU at one deadline (`call`), '
          'stopping (`stop`), the watchdog, the self-tests',
          ('kernel/boot', 'kernel/acpi', 'kernel/x86', 'kernel/lib', 'harness/measure',
           'harness/options', 'lib')),
    Layer('kernel/screen',
          "serial, VGA text, the framebuffer and the font, the screen's"
          ' layout (`screen`), which log lines it shows where '
          '(`log_routing`), what it shows of the run (`run_view`: '
          "progress, then the answer's page, `answer_page`, and the "
          "summary's pages), and the console that writes to all of "
          'them',
          ('kernel/smp', 'kernel/efi', 'kernel/boot', 'kernel/x86', 'harness/render',
           'harness/decide', 'harness/measure', 'cpu', 'lib')),
    Layer('kernel',
          'the ring-0 host: `main.c` (its entry, `kmain()`, and its part'
          ' of the run sequence; reads top to bottom), `host.c` (its '
          'side of `harness/measure/host.h`), `exit.c`, `numa.c`',
          ('kernel/screen', 'kernel/smp', 'kernel/boot', 'kernel/efi', 'kernel/time',
           'kernel/acpi', 'kernel/x86', 'kernel/lib', 'harness', 'harness/render',
           'harness/measure', 'harness/options', 'cpu', 'lib')),
    Layer('boot',
          'nasm: the multiboot v1 and v2 headers, the 32→64-bit entry, '
          'the UEFI entry; it fills the GDT pointer and the firmware '
          'state that C owns, then calls `kmain()`',
          ('kernel', 'kernel/efi', 'kernel/x86')),
    Layer('linux',
          'the user-space host, `build/bin/pagebench-linux`: `main.c` '
          '(its entry and its part of the run sequence), `host.c` and '
          '`counters.c` (its side of `harness/measure/host.h`, '
          '`counters.c` the counters beside each timed window), '
          '`log_file.c` (log=: standard output or a new file), the '
          'buffers, pinning, facts, CPUs and interrupts',
          ('harness', 'harness/render', 'harness/decide', 'harness/measure', 'harness/options',
           'cpu', 'lib')),
    Layer('module/compat',
          'the C library headers the harness includes (`stdint.h` and '
          "friends), from the kernel's types, for the module's build",
          ()),
    Layer('module',
          'the host as a Linux kernel module, '
          '`build/module/pagebench.ko`: `main.c` loads it and starts the'
          " run's kthread; `run_host.c` is its part of the run sequence "
          "and includes none of the kernel's headers, the other files "
          "include only the kernel's, `kernel.h` is all that passes "
          'between them; `clear.def`, `copy.def`, `strings.def` are the'
          " module's own variant rows (the running kernel's routines), "
          'which its build appends to the tables of `variants/`; '
          '`jump.asm` is the way back from a trap or an unload (setjmp '
          'and longjmp); `Kbuild` builds it from the tree `make module`'
          ' lays out under `build/module/`',
          ('harness', 'harness/decide', 'harness/measure', 'harness/options', 'variants',
           'cpu', 'lib')),
    Layer('tools',
          '`pagebench-cpuid` and its dump reader; '
          '`pagebench-core-probe`, what the core gives a CPU over '
          'minutes (docs/method.md, "Ratios"); `pagebench-store-value`,'
          ' whether the value stored or the statistic (median or mean '
          'call) changes a store loop\'s figure (docs/method.md, "The '
          'peers\' state"); '
          '`pagebench-decide`, the answer of a log without answer '
          'lines, by the engine of `harness/decide/answer.c`, and the matrix '
          "of a log's own answer lines read back (`answer_lines`), "
          'never decided again, and with `--combine` runs and CPU '
          'groups combined (`decide_combine`), and with `--compare` '
          "the figures' intervals and ratios the report shows "
          '(`decide_compare`)',
          ('harness/render', 'harness/decide', 'harness/measure', 'harness/stats',
           'harness/options', 'variants', 'cpu', 'lib'),
          notes={None: 'the probe: none'}),
    Layer('tests/unit',
          'C unit tests, one program per file, run by '
          '`tests/unit/test_unit.py`',
          ('tools', 'linux', 'kernel/screen', 'kernel/smp', 'kernel/boot', 'kernel/efi',
           'kernel/time', 'kernel/acpi', 'kernel/x86', 'harness/render', 'harness/decide',
           'harness/measure/suites', 'harness/measure', 'harness/stats', 'harness/options',
           'variants', 'cpu', 'lib'),
          notes={'linux': 'host_ring0.c: the host of the tests that run a suite'}),
    Layer('tests/fuzz',
          "the fuzz targets (libFuzzer's `LLVMFuzzerTestOneInput`): "
          "`decide.c` pagebench-decide's input (it includes "
          '`tools/pagebench-decide.c` whole), `options.c` the option '
          'parser; `run_seeds.c`, a `main()` that runs each seed once; '
          "`seeds`, the script that makes their seeds from the tree's "
          'logs; `regressions/`, inputs that once failed',
          ('tools', 'harness/decide', 'harness/measure', 'harness/options', 'variants', 'cpu',
           'lib')),
)


def table():
    """{folder: set of what it may include}: folders and headers."""
    return {l.folder: set(l.includes) for l in LAYERS}
