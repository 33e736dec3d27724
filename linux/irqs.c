// SPDX-License-Identifier: MIT
/*
 * /proc/interrupts, one column: the interrupts that reached one CPU. A
 * header line names the CPU columns; each row is "NAME: count count ...".
 * Rows with fewer counts than CPUs (ERR, MIS) are system-wide: left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "linux/linux.h"

/* The column of "CPU<cpu>" in the header, or -1. */
static int cpu_column(const char *header, int cpu)
{
	char want[16];
	const char *p = header;
	int col = 0;

	snprintf(want, sizeof(want), "CPU%d", cpu);
	for (;;) {
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			return -1;
		n = strcspn(p, " \t\n");
		if (n == strlen(want) && !strncmp(p, want, n))
			return col;
		col++;
		p += n;
	}
}

bool irq_counts_read(struct irq_counts *c, int cpu)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096];
	int col;

	c->ok = false;
	c->n = 0;
	c->total = 0;
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f) || (col = cpu_column(line, cpu)) < 0) {
		fclose(f);
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *p, *end;
		unsigned long long v = 0;
		int k;

		if (!colon)
			continue;
		p = colon + 1;
		for (k = 0; k <= col; k++) {
			v = strtoull(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		if (k <= col)
			continue;
		*colon = '\0';
		p = line;
		while (*p == ' ')
			p++;
		if (c->n < IRQ_SOURCES_MAX) {
			snprintf(c->name[c->n], sizeof(c->name[0]), "%.15s", p);
			c->count[c->n++] = v;
		}
		c->total += v;
	}
	fclose(f);
	c->ok = true;
	return true;
}

void irq_counts_top(const struct irq_counts *now,
		    const struct irq_counts *before, char *buf, size_t len)
{
	unsigned long long delta[IRQ_SOURCES_MAX];
	unsigned int i, j, shown = 0;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < now->n; i++) {
		delta[i] = now->count[i];
		for (j = 0; j < before->n; j++)
			if (!strcmp(before->name[j], now->name[i])) {
				delta[i] -= before->count[j];
				break;
			}
	}
	/* The three largest, in falling order. */
	while (shown < 3) {
		unsigned int best = now->n;

		for (i = 0; i < now->n; i++)
			if (delta[i] && (best == now->n || delta[i] > delta[best]))
				best = i;
		if (best == now->n)
			break;
		if (n < len)
			n += snprintf(buf + n, len - n, "%s%s:%llu", shown ? "," : "",
				      now->name[best], delta[best]);
		delta[best] = 0;
		shown++;
	}
}
