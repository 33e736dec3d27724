"""The shape of a suite=strings log (docs/log-format.md, "The strings
suite"), checked the same way for the kernel and for pagebench-linux.
Expectations come from the documentation and from variants/strings.def,
not from the code that prints the lines."""
import re
import statistics

from pbreport import grammar
from tables import string_variant_needs

ALIGN = (0, 1, 7)
MODES = ("tput", "lat")
PATTERNS = ("zero", "alt", "random")


def expected_blocks(ops):
    """Block headers in the documented order, for the ops that run."""
    out = []
    for op in ("memset", "memcpy"):
        if op not in ops:
            continue
        for mode in MODES:
            for d in ALIGN:
                if op == "memset":
                    out.append("strings memset %s dst=%d:" % (mode, d))
                else:
                    out += ["strings memcpy %s dst=%d src=%d:" % (mode, d, s)
                            for s in ALIGN]
        out.append(None)    # the op's zero block
    return out


def check(tc, lines, sizes, reps, flags, disabled=()):
    """Asserts the strings part of lines (texts after the tag) and returns
    {op: [variants that ran]}. flags: the features line's values."""
    kinds = [grammar.classify(l) for l in lines]
    for line, kind in zip(lines, kinds):
        tc.assertIsNotNone(kind, "undocumented: %r" % line)
    plan = kinds.index("plan")
    tc.assertEqual(kinds[plan + 1], "strings_plan")
    m = grammar.compiled("strings_plan").match(lines[plan + 1])
    tc.assertEqual([int(x) for x in m.group(1).split(",")], sizes)
    tc.assertEqual(m.group(3), "0,1,7")
    tc.assertEqual(m.group(4), "tput,lat")
    zero_calls, zero_n = int(m.group(5)), int(m.group(6))

    # The variants lines: what strings.def has, less what the CPU lacks.
    want = {"memset": [], "memcpy": []}
    for (op, name), feat in string_variant_needs().items():
        if feat == "none" or (flags.get(feat) == "1" and feat not in disabled):
            want[op].append(name)
        else:
            reason = "skipped: %s (%s): needs %s" % (name, op, feat)
            tc.assertTrue([l for l in lines if l.startswith(reason)], reason)
    ran = {}
    for line in lines:
        mm = re.match(r"variants (memset|memcpy):(.*)$", line)
        if mm:
            ran[mm.group(1)] = mm.group(2).split()
    tc.assertEqual(ran, want)

    tsc = [l for l, k in zip(lines, kinds) if k == "strings_tsc"]
    tc.assertEqual(len(tsc), 1)
    step = int(grammar.compiled("strings_tsc").match(tsc[0]).group(1))
    tc.assertGreater(step, 0)

    # Blocks in order; each: overhead, then sizes x variants in order.
    heads = [i for i, k in enumerate(kinds)
             if k in ("strings_block", "strings_zero_block")]
    expect = expected_blocks([op for op in want if want[op]])
    tc.assertEqual(len(heads), len(expect))
    value_rx = grammar.compiled("strings_value")
    zero_rx = grammar.compiled("strings_zero")
    ops = [op for op in ("memset", "memcpy") if want[op]]
    op_of_zero = iter(ops)
    for n, (i, head) in enumerate(zip(heads, expect)):
        end = heads[n + 1] if n + 1 < len(heads) else len(lines)
        body = [(l, k) for l, k in zip(lines[i + 1:end], kinds[i + 1:end])
                if k not in ("disturbance", "answer", "runtime", "done", "log", "complete")]
        if head is None:
            op = next(op_of_zero)
            tc.assertEqual(lines[i], "strings zero %s calls=%d n=%d:" % (
                op, zero_calls, zero_n))
            tc.assertEqual([k for _, k in body[:2]], ["strings_overhead"] * 2)
            got = [zero_rx.match(l).group(1, 2) for l, _ in body[2:]]
            tc.assertEqual(got, [(v, p) for v in want[op] for p in PATTERNS])
            figures = [zero_rx.match(l) for l, _ in body[2:]]
        else:
            op = head.split()[1]
            tc.assertEqual(lines[i], head)
            tc.assertEqual(body[0][1], "strings_overhead")
            got = [value_rx.match(l).group(1, 2) for l, _ in body[1:]]
            tc.assertEqual(got, [(v, str(s)) for s in sizes for v in want[op]],
                           head)
            figures = [value_rx.match(l) for l, _ in body[1:]]
        for f in figures:
            values = [float(x) for x in f.group(5).split(",")]
            tc.assertEqual(len(values), reps, f.group(0))
            tc.assertEqual(float(f.group(3)), min(values), f.group(0))
            # the median of an even count is truncated to a hundredth
            tc.assertAlmostEqual(float(f.group(4)), statistics.median(values),
                                 delta=0.0051)
    return ran
