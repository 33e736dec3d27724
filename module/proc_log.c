// SPDX-License-Identifier: MIT
/*
 * The run's lines, kept in pages and read at /proc/pagebench while the run
 * goes on; the log is complete once it ends with the "done:" line.
 *
 * One writer at a time (module init, then the run's kthread) appends
 * without a lock, and publishes the new length after the bytes; readers
 * read up to the length they see. Lines come also from inside a pass, with
 * preemption off, so a new page is taken without sleeping.
 */
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "module/kernel.h"

#define LOG_PAGES_MAX	4096	/* 16 MiB, far more than any plan prints */

static struct {
	char **pages;
	size_t len;		/* bytes; written with release, read with acquire */
	unsigned long lost;	/* lines dropped for want of a page */
	struct proc_dir_entry *proc;
} log;

int pbk_log_init(void)
{
	log.pages = kcalloc(LOG_PAGES_MAX, sizeof(*log.pages), GFP_KERNEL);
	return log.pages ? 0 : -ENOMEM;
}

/* Pages for [from, to), taken as needed; false when one cannot be had. */
static bool have_pages(size_t from, size_t to)
{
	size_t pg;

	if (to > (size_t)LOG_PAGES_MAX * PAGE_SIZE)
		return false;
	for (pg = from / PAGE_SIZE; pg <= (to - 1) / PAGE_SIZE; pg++) {
		if (log.pages[pg])
			continue;
		log.pages[pg] = (char *)__get_free_page(GFP_ATOMIC | __GFP_NOWARN);
		if (!log.pages[pg])
			return false;
	}
	return true;
}

void pbk_log_sink(const char *s, size_t n)
{
	size_t len = log.len, done = 0;

	if (!n)
		return;
	if (!have_pages(len, len + n)) {
		log.lost++;
		return;
	}
	while (done < n) {
		size_t pos = len + done, off = pos % PAGE_SIZE;
		size_t k = min(n - done, PAGE_SIZE - off);

		memcpy(log.pages[pos / PAGE_SIZE] + off, s + done, k);
		done += k;
	}
	smp_store_release(&log.len, len + n);
}

unsigned long pbk_log_lost(void)
{
	return log.lost;
}

void pbk_log_to_printk(void)
{
	static char line[1024];	/* longer than any line out_line() makes */
	size_t len = smp_load_acquire(&log.len), pos = 0;

	while (pos < len) {
		size_t n = 0;

		while (pos < len && n + 1 < sizeof(line)) {
			char c = log.pages[pos / PAGE_SIZE][pos % PAGE_SIZE];

			pos++;
			if (c == '\n')
				break;
			line[n++] = c;
		}
		line[n] = '\0';
		pr_err("pagebench: %s\n", line);
	}
}

static ssize_t log_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	size_t len = smp_load_acquire(&log.len), done = 0;

	if (*ppos < 0)
		return -EINVAL;
	while (done < count && (size_t)*ppos < len) {
		size_t pos = *ppos, off = pos % PAGE_SIZE;
		size_t k = min3(count - done, PAGE_SIZE - off, len - pos);

		if (copy_to_user(buf + done, log.pages[pos / PAGE_SIZE] + off, k))
			return done ? done : -EFAULT;
		done += k;
		*ppos += k;
	}
	return done;
}

static const struct proc_ops log_ops = {
	.proc_read = log_read,
	.proc_lseek = default_llseek,
};

int pbk_log_publish(void)
{
	log.proc = proc_create("pagebench", 0444, NULL, &log_ops);
	return log.proc ? 0 : -ENOMEM;
}

/* proc_remove() waits for readers still in log_read(). */
void pbk_log_free(void)
{
	unsigned int pg;

	proc_remove(log.proc);
	log.proc = NULL;
	for (pg = 0; pg < LOG_PAGES_MAX && log.pages; pg++)
		free_page((unsigned long)log.pages[pg]);
	kfree(log.pages);
	log.pages = NULL;
	log.len = 0;
}
