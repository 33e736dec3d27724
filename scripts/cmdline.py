"""What the pagebench scripts share on their command line: the exit
statuses, --version, the refusal of control characters in values, and
stopping quietly when stdout's reader goes away.

Each script puts its folder on sys.path and imports this module."""
import argparse
import errno
import fcntl
import os
import re
import select
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The exit statuses of every pagebench tool: those of lib/status.h, which
# pagebench-linux and pagebench-cpuid exit with.
OK = 0              # done
FAILURES = 1        # the run found failures
USAGE = 2           # usage or option error
ENVIRONMENT = 3     # the environment cannot run what was asked

# C0, DEL and C1: a newline or carriage return in a value would start a
# line of its own in a log or in a GRUB config; an escape, redraw a screen.
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def version():
    """The tree's version, as the log's version line gives it (scripts/version)."""
    out = subprocess.run([os.path.join(HERE, "version")], stdout=subprocess.PIPE,
                         text=True, check=True)
    return out.stdout.strip()


class VersionAction(argparse.Action):
    """--version: looked up only when asked for (it runs git)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version (as in the log's version line) and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        # As pagebench-linux and pagebench-cpuid print theirs.
        print("%s %s" % (parser.prog, version()))
        parser.exit(OK)


def add_version(ap):
    ap.add_argument("--version", action=VersionAction)


def refuse_control_characters(ap, args):
    """A usage error (exit 2) for the first value with a control character."""
    for action in ap._actions:
        values = getattr(args, action.dest, None)
        for value in values if isinstance(values, list) else [values]:
            m = CONTROL_RE.search(value) if isinstance(value, str) else None
            if m:
                name = "/".join(action.option_strings) or action.metavar or action.dest
                ap.error("%s: %r has a control character (%r at offset %d): refused"
                         % (name, value, m.group(0), m.start()))


def stdout_reader_gone():
    """Whether stdout is a pipe whose reader went away (poll says POLLERR
    on a pipe's write end then): a BrokenPipeError from another pipe, such
    as a child's stdin, is not that."""
    try:
        p = select.poll()
        p.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & select.POLLERR for _, ev in p.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def exit_with(main, *args):
    """sys.exit(main(*args)), but when stdout's reader went away (a closed
    pipe, as with | head) quietly with OK, as lib/status.h says every
    pagebench tool does; stdout that cannot take the rest (a full disk,
    >/dev/full) is said on stderr, with ENVIRONMENT."""
    try:
        try:
            status = main(*args)
        except SystemExit as done:      # argparse: --help, --version, usage
            status = done.code
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            print("%s: cannot write to standard output: %s"
                  % (os.path.basename(sys.argv[0]), err.strerror), file=sys.stderr)
            status = ENVIRONMENT
            drop_stdout()
    except BrokenPipeError:
        if not stdout_reader_gone():
            raise
        drop_stdout()
        status = OK
    sys.exit(status)


def drop_stdout():
    """Python flushes stdout once more at exit: let it find nothing."""
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, sys.stdout.fileno())
    os.close(fd)


# -- output paths a root script can open safely ------------------------------
# Root writing by path where another user can rename or plant entries would
# write where that user says (a symlink to /etc, a FIFO that hangs it). So a
# script's outputs are opened here only: in a folder no other user can swap
# entries in (owned by root or us; not writable by others, unless sticky),
# never through a symlink (O_NOFOLLOW) there nor in a folder on the way
# that another user can write, never a FIFO or device (O_NONBLOCK,
# then the file's own fstat), never a file another user owns or that has
# other links.

class UnsafePath(Exception):
    """An output path refused, and why (status ENVIRONMENT)."""


def folder_unsafe(st):
    """Why a folder with this stat lets another user swap its entries, or None."""
    if not stat.S_ISDIR(st.st_mode):
        return "not a folder"
    if st.st_uid not in (0, os.geteuid()):
        return "owned by uid %d, who can rename or replace what is in it" % st.st_uid
    if st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
        return ("writable by other users and not sticky: they can rename or replace "
                "what is in it (chmod o-w,g-w or +t, or use a folder of your own)")
    return None


def others_write(st):
    """Whether another user can make entries in a folder: plant a link there."""
    return bool(st.st_mode & 0o022) or st.st_uid not in (0, os.geteuid())


# Links followed on one path at most, as the kernel's MAXSYMLINKS.
LINKS_MAX = 40
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


def walk_folder(path, make=False):
    """A descriptor of the folder path, opened a component at a time from
    / (or .), each through the descriptor of the one before (each missing
    one made, 0755, with make). A symbolic link is followed only where no
    other user could have planted it: in a folder only root and we can
    write, or in a sticky one of ours or root's (as /tmp) where the link is
    ours or root's too; one in a folder another user can write is refused
    (UnsafePath), wherever on the path. linux/log_file.c walks log= alike."""
    rest = [c for c in path.split("/") if c not in ("", ".")]
    fd = os.open("/" if path.startswith("/") else ".", DIR_FLAGS)
    links = 0
    try:
        while rest:
            comp = rest.pop(0)
            st = os.fstat(fd)
            try:
                try:
                    nfd = os.open(comp, DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
                except FileNotFoundError:
                    if not make:
                        raise
                    try:
                        os.mkdir(comp, 0o755, dir_fd=fd)
                    except FileExistsError:
                        pass        # made meanwhile: checked as any other
                    nfd = os.open(comp, DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as e:
                try:
                    target = os.readlink(comp, dir_fd=fd)
                    lst = os.stat(comp, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    raise UnsafePath("%s: %s: %s" % (path, comp, e.strerror)) from None
                if others_write(st) and not (st.st_mode & stat.S_ISVTX and
                                             st.st_uid in (0, os.geteuid()) and
                                             lst.st_uid in (0, os.geteuid())):
                    raise UnsafePath("%s: %s is a symbolic link in a folder other users "
                                     "can write: they could have planted it (name the "
                                     "folder it points to)" % (path, comp)) from None
                links += 1
                if links > LINKS_MAX:
                    raise UnsafePath("%s: %s" % (path, os.strerror(errno.ELOOP))) from None
                rest[:0] = [c for c in target.split("/") if c not in ("", ".")]
                if target.startswith("/"):
                    os.close(fd)
                    fd = os.open("/", DIR_FLAGS)
                continue
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_folder(path, make=False):
    """A descriptor of the folder path (made, 0755, when missing and make),
    refused (UnsafePath) when another user can swap its entries, or when
    the way there goes through a link another user could have planted
    (walk_folder). Writes go through this descriptor, so the folder
    checked is the one written."""
    try:
        fd = walk_folder(path, make)
    except OSError as e:
        raise UnsafePath("%s: %s" % (path, e.strerror))
    why = folder_unsafe(os.fstat(fd))
    if why:
        os.close(fd)
        raise UnsafePath("%s: %s" % (path, why))
    return fd


def open_file_in(dir_fd, name, shown, exclusive=False, mode=0o644):
    """A descriptor to write name in the folder dir_fd (open_folder),
    emptied; created, and with exclusive never an existing one. shown names
    it in messages."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(name, flags | (os.O_EXCL if exclusive else 0), mode, dir_fd=dir_fd)
    except OSError as e:
        why = {errno.ELOOP: "a symlink", errno.ENXIO: "a FIFO"}.get(e.errno, e.strerror)
        raise UnsafePath("%s: %s: not written" % (shown, why)) from e
    st = os.fstat(fd)
    why = None
    if not stat.S_ISREG(st.st_mode):
        why = "not a regular file"
    elif st.st_uid != os.geteuid():
        why = "owned by uid %d" % st.st_uid
    elif st.st_nlink != 1:
        why = "it has %d links" % st.st_nlink
    if why:
        os.close(fd)
        raise UnsafePath("%s: %s: not written" % (shown, why))
    os.ftruncate(fd, 0)
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    return fd


def open_output(path, exclusive=False, mode=0o644, binary=False):
    """A file object to write path (its folder made when missing), text
    unless binary, opened as open_folder and open_file_in check."""
    folder = os.path.dirname(os.path.abspath(path))
    dfd = open_folder(folder, make=True)
    try:
        fd = open_file_in(dfd, os.path.basename(path), path, exclusive, mode)
    finally:
        os.close(dfd)
    return os.fdopen(fd, "wb" if binary else "w")


if __name__ == "__main__":
    # For the shell scripts: scripts/cmdline.py safe-folder DIR
    if len(sys.argv) == 3 and sys.argv[1] == "safe-folder":
        try:
            os.close(open_folder(sys.argv[2]))
        except UnsafePath as e:
            print("%s: %s" % (os.path.basename(sys.argv[0]), e), file=sys.stderr)
            sys.exit(ENVIRONMENT)
    else:
        sys.exit("usage: cmdline.py safe-folder DIR")
