# tree-hash.py DIR: prints the content hash of a copy of a source tree (doc/provisioning.md),
# 64 hex digits: the SHA-256 of the lines `sha256sum` prints for every regular file and symbolic
# link below DIR, without the top-level target/ and .git, in the byte order of their paths
# ("./src/main.rs"); a link counts as the bytes of its target's name. For a tree without links
# that is exactly
#   find . \( -path ./target -o -path ./.git \) -prune -o \( -type f -o -type l \) -print0 |
#     LC_ALL=C sort -z | xargs -0 -r sha256sum -- | sha256sum
# Root runs it (python3 -I -S: nothing imported from anywhere but the standard library) on a
# copy the sandbox made and sealed (doc/security.md R28): it never follows a link, not even a
# directory's (each step is an openat of a name, O_NOFOLLOW), so no link in the copy makes it
# read a file outside DIR; anything but a directory, a regular file or a link is skipped (the
# copy has none). Exit 1 with one line on stderr when DIR cannot be read.
import hashlib
import os
import stat
import sys

READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC


def line(digest, path):
    # sha256sum's line: a name with a backslash or a newline is escaped and the line marked.
    if b"\\" in path or b"\n" in path:
        path = path.replace(b"\\", b"\\\\").replace(b"\n", b"\\n")
        return b"\\" + digest.encode() + b"  " + path + b"\n"
    return digest.encode() + b"  " + path + b"\n"


def walk(dirfd, rel, out):
    names = sorted(os.fsencode(e.name) for e in os.scandir(dirfd))
    for name in names:
        path = rel + b"/" + name
        if path in (b"./target", b"./.git"):
            continue
        st = os.stat(name, dir_fd=dirfd, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            fd = os.open(name, READ | os.O_DIRECTORY, dir_fd=dirfd)
            try:
                walk(fd, path, out)
            finally:
                os.close(fd)
        elif stat.S_ISLNK(st.st_mode):
            target = os.readlink(name, dir_fd=dirfd)
            out.append((path, hashlib.sha256(target).hexdigest()))
        elif stat.S_ISREG(st.st_mode):
            fd = os.open(name, READ, dir_fd=dirfd)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    continue
                h = hashlib.sha256()
                while True:
                    b = os.read(fd, 1 << 20)
                    if not b:
                        break
                    h.update(b)
            finally:
                os.close(fd)
            out.append((path, h.hexdigest()))


def main():
    if len(sys.argv) != 2:
        print("usage: tree-hash.py DIR", file=sys.stderr)
        return 2
    try:
        top = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        out = []
        walk(top, b".", out)
    except OSError as e:
        print(f"tree-hash.py: {sys.argv[1]}: {e.strerror} ({e.filename or '.'})", file=sys.stderr)
        return 1
    out.sort(key=lambda p: p[0])
    total = hashlib.sha256()
    for path, digest in out:
        total.update(line(digest, path))
    print(total.hexdigest())
    return 0


sys.exit(main())
