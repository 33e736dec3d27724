"""Old variant names in logs, mapped to today's (one place for the renaming).

The copy table's temporal vector variants were renamed sse2 -> sse2_t,
avx -> avx_t, avx512 -> avx512_t, and the non-temporal ones sse2_nt ->
sse2, avx_nt -> avx, avx512_nt -> avx512 (a plain vector name is
non-temporal everywhere; _t is temporal); the strings table's avx and
avx512 became avx_t and avx512_t. A log says which names it uses by the
names it has: a copy pass with an *_nt variant, or a strings block with
avx or avx512 but no *_t, has the old ones. Logs already read under the
new names map to themselves.
"""

COPY_OLD = {"sse2": "sse2_t", "avx": "avx_t", "avx512": "avx512_t",
            "sse2_nt": "sse2", "avx_nt": "avx", "avx512_nt": "avx512"}
STRINGS_OLD = {"avx": "avx_t", "avx512": "avx512_t"}


def mapping(suite, names):
    """{name in the log: today's name} for the variant names of one suite
    (clear, copy, scrub, memset, memcpy) as one log has them."""
    names = set(names)
    if suite == "copy" and names & {"sse2_nt", "avx_nt", "avx512_nt"}:
        table = COPY_OLD
    elif suite in ("memset", "memcpy") and names & set(STRINGS_OLD) and \
            not names & set(STRINGS_OLD.values()):
        table = STRINGS_OLD
    else:
        table = {}
    return {n: table.get(n, n) for n in names}
