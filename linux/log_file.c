// SPDX-License-Identifier: MIT
/*
 * Where pagebench-linux's log goes (log=, docs/running.md): standard
 * output, as a pipe, a file redirect and pdsh or clush read it; or a new
 * file, so that a terminal shows the progress and the answer, not
 * hundreds of raw lines. The file is created, never opened: an existing
 * path (a symlink too) is refused, so a run never overwrites a log or
 * writes through a link someone else placed, and so is a folder where
 * another user could swap it, or a path through a link another user
 * could have planted (scripts/cmdline.py's open_output rule).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "linux/linux.h"

static FILE *log_file;		/* stdout, or the file */
static char log_path[OPT_WORD_MAX + 64];

/* "pagebench-HOST-YYYYMMDDTHHMMSSZ.log": a name no other run of this host took. */
static void default_name(char *buf, size_t len)
{
	char host[64] = "", *c;
	time_t now = time(NULL);
	struct tm tm;

	if (gethostname(host, sizeof(host) - 1) || !host[0])
		strcpy(host, "host");
	host[sizeof(host) - 1] = '\0';
	/* The host's name, as a file name's part: no '/', nothing odd. */
	for (c = host; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '.'))
			*c = '_';
	gmtime_r(&now, &tm);
	snprintf(buf, len, "pagebench-%s-%04d%02d%02dT%02d%02d%02dZ.log", host,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		 tm.tm_sec);
}

/*
 * Why a folder lets another user swap its entries (and so the log for a
 * link of theirs), or NULL: scripts/cmdline.py's folder_unsafe(), as a
 * run as root writes there too.
 */
static const char *folder_unsafe(const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		return "not a folder";
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return "its folder is another user's, who can rename or replace what is in it";
	if ((st->st_mode & 022) && !(st->st_mode & S_ISVTX))
		return "its folder is writable by other users and not sticky: they can rename "
		       "or replace what is in it";
	return NULL;
}

/* Whether another user can make entries in the folder: plant a link there. */
static bool others_write(const struct stat *st)
{
	return (st->st_mode & 022) || (st->st_uid != 0 && st->st_uid != geteuid());
}

static bool ours(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* Links followed on one path at most, as the kernel's MAXSYMLINKS. */
#define LINKS_MAX 40

/*
 * The folder named folder, opened a component at a time from "/" (or
 * "."), each through the descriptor of the one before, so that what is
 * checked is what is used. A symbolic link is followed only where no
 * other user could have planted it: in a folder only root and we can
 * write, or in a sticky one of ours or root's (as /tmp) where the link is
 * ours or root's too. One in a folder another user can write is refused,
 * wherever on the path (issue 38: log=ww/sub/x.log, ww writable by all
 * and sub another user's link to a folder of root's, created the log
 * there). -1 with why on stderr.
 */
static int open_folder_walk(const char *path, const char *folder)
{
	char rest[PATH_MAX], next[PATH_MAX], target[PATH_MAX], comp[NAME_MAX + 1] = "";
	unsigned int links = 0;
	const char *p = rest, *why = NULL;
	struct stat st, lst;
	int dfd, fd, err = 0;
	ssize_t k;
	size_t n;

	if ((size_t)snprintf(rest, sizeof(rest), "%s", folder) >= sizeof(rest)) {
		err = ENAMETOOLONG;
		goto fail;
	}
	dfd = open(rest[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fstat(dfd, &st)) {
		err = errno;
		goto fail;
	}
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			return dfd;
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			err = ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		if (!strcmp(comp, "."))
			continue;
		fd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			close(dfd);
			dfd = fd;
			if (fstat(dfd, &st)) {
				err = errno;
				break;
			}
			continue;
		}
		err = errno;
		k = readlinkat(dfd, comp, target, sizeof(target) - 1);
		if (k < 0 || fstatat(dfd, comp, &lst, AT_SYMLINK_NOFOLLOW))
			break;		/* not a link: the open's error */
		target[k] = '\0';
		if (others_write(&st) &&
		    !((st.st_mode & S_ISVTX) && ours(st.st_uid) && ours(lst.st_uid))) {
			why = "is a symbolic link in a folder other users can write: they could "
			      "have planted it (name the folder it points to)";
			break;
		}
		if (++links > LINKS_MAX ||
		    (size_t)snprintf(next, sizeof(next), "%s/%s", target, p) >= sizeof(next)) {
			err = links > LINKS_MAX ? ELOOP : ENAMETOOLONG;
			break;
		}
		memcpy(rest, next, sizeof(rest));
		p = rest;
		if (rest[0] == '/') {
			close(dfd);
			dfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (dfd < 0 || fstat(dfd, &st)) {
				err = errno;
				goto fail;
			}
		}
	}
	close(dfd);
	if (why) {
		fprintf(stderr, "pagebench-linux: cannot create the log %s: %s %s\n", path,
			comp, why);
		return -1;
	}
fail:
	fprintf(stderr, "pagebench-linux: cannot create the log %s: %s%s%s\n", path, comp,
		comp[0] ? ": " : "", strerror(err));
	return -1;
}

/* path created new, through its checked folder; -1 with why on stderr. */
static int create_in_safe_folder(const char *path)
{
	char folder[sizeof(log_path)];
	const char *name = strrchr(path, '/'), *why;
	struct stat st;
	int dfd, fd, err;

	if (name) {
		snprintf(folder, sizeof(folder), "%.*s", (int)(name - path), path);
		if (!folder[0])
			strcpy(folder, "/");
		name++;
	} else {
		strcpy(folder, ".");
		name = path;
	}
	if (!name[0]) {
		fprintf(stderr, "pagebench-linux: cannot create the log %s: it names a folder, "
			"not a file\n", path);
		return -1;
	}
	dfd = open_folder_walk(path, folder);
	if (dfd < 0)
		return -1;
	if (fstat(dfd, &st)) {
		fprintf(stderr, "pagebench-linux: cannot create the log %s: %s\n", path,
			strerror(errno));
		close(dfd);
		return -1;
	}
	why = folder_unsafe(&st);
	if (why) {
		fprintf(stderr, "pagebench-linux: cannot create the log %s: %s\n", path, why);
		close(dfd);
		return -1;
	}
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	err = errno;
	close(dfd);
	if (fd < 0)
		fprintf(stderr, "pagebench-linux: cannot create the log %s: %s%s\n", path,
			strerror(err), err == EEXIST ?
			" (a run never overwrites a file: name a new one with log=PATH, "
			"or log=- for standard output)" : "");
	return fd;
}

bool linux_log_wants_file(const struct options *o)
{
	return strcmp(o->log_path, "-") && (o->log_path[0] || isatty(STDOUT_FILENO));
}

bool linux_log_open(const struct options *o)
{
	int fd;

	if (!linux_log_wants_file(o)) {
		log_file = stdout;
		snprintf(log_path, sizeof(log_path), "standard output");
		return true;
	}
	if (o->log_path[0])
		snprintf(log_path, sizeof(log_path), "%s", o->log_path);
	else
		default_name(log_path, sizeof(log_path));
	fd = create_in_safe_folder(log_path);
	if (fd < 0)
		return false;
	log_file = fdopen(fd, "w");
	if (!log_file) {
		fprintf(stderr, "pagebench-linux: cannot write the log %s: %s\n", log_path,
			strerror(errno));
		close(fd);
		unlink(log_path);
		return false;
	}
	/* A line at a time: what a crash leaves is the log up to it. */
	setvbuf(log_file, NULL, _IOLBF, 0);
	return true;
}

bool linux_log_to_file(void)
{
	return log_file && log_file != stdout;
}

const char *linux_log_path(void)
{
	return log_path;
}

/*
 * The log is the point of the run: once it cannot be written, stop. A
 * reader that went away (EPIPE) took what it wanted: quietly, status 0
 * (lib/status.h).
 */
static void __attribute__((noreturn)) log_lost(int err)
{
	linux_progress_end();
	if (err == EPIPE)
		_exit(STATUS_DONE);
	fprintf(stderr, "pagebench-linux: cannot write the log to %s: %s\n", log_path,
		strerror(err));
	_exit(STATUS_CANNOT);
}

void linux_log_sink(const char *s, size_t len)
{
	errno = 0;
	if (fwrite(s, 1, len, log_file) != len || ferror(log_file))
		log_lost(errno ? errno : EIO);
}

void linux_log_close(void)
{
	errno = 0;
	if (fflush(log_file) || ferror(log_file) || fclose(log_file))
		log_lost(errno ? errno : EIO);
}
