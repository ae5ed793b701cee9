#!/bin/sh
# lint-cloexec.sh [FILE.c|DIR ...]: every descriptor rarperf opens is close-on-exec (STYLE.md
# points 17 and 18), so nothing crosses into a measured command or a tool run as another user.
# Fails (exit 1, one "file:line: what" per finding) on:
#   open/openat/mkostemp(s)/pipe2/socket/socketpair/accept4/eventfd/memfd_create/epoll_create1/
#   inotify_init1/signalfd/timerfd_create without their CLOEXEC flag;
#   fopen/freopen without "e" in the mode (a literal mode is required);
#   mkstemp/mkstemps/pipe/dup/creat/accept/popen/epoll_create/inotify_init at all (they cannot
#   set it: use mkostemp, pipe2, fcntl F_DUPFD_CLOEXEC, open, accept4, ...).
# Comments and string literals are not code. A call that must stay as it is carries
# "lint-cloexec: ok" and the reason in a comment on its first line.
# Default: the C sources under src/ and confgen/.
set -u
cd "$(dirname "$0")/.." || exit 2
exec perl -Itools -MLintC -e '
use strict;
use warnings;
my %flag = (
	open => "O_CLOEXEC", openat => "O_CLOEXEC", mkostemp => "O_CLOEXEC",
	mkostemps => "O_CLOEXEC", pipe2 => "O_CLOEXEC", socket => "SOCK_CLOEXEC",
	socketpair => "SOCK_CLOEXEC", accept4 => "SOCK_CLOEXEC", eventfd => "EFD_CLOEXEC",
	memfd_create => "MFD_CLOEXEC", epoll_create1 => "EPOLL_CLOEXEC",
	inotify_init1 => "IN_CLOEXEC", signalfd => "SFD_CLOEXEC", timerfd_create => "TFD_CLOEXEC",
);
my %banned = (
	mkstemp => "mkostemp(tmpl, O_CLOEXEC)", mkstemps => "mkostemps(tmpl, n, O_CLOEXEC)",
	pipe => "pipe2(fds, O_CLOEXEC)", dup => "fcntl(fd, F_DUPFD_CLOEXEC, 0)",
	creat => "open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)",
	accept => "accept4(..., SOCK_CLOEXEC)", popen => "pipe2 + a spawn with closed fds",
	epoll_create => "epoll_create1(EPOLL_CLOEXEC)", inotify_init => "inotify_init1(IN_CLOEXEC)",
);
my $names = join("|", sort(keys %flag), sort(keys %banned), "fopen", "freopen");
my $bad = 0;
for my $file (LintC::c_files(@ARGV)) {
	my $src = LintC::slurp($file);
	# A masked copy, offsets kept (LintC.pm): calls are found in it, read in $src.
	my ($code, $ok) = LintC::mask($src, "lint-cloexec: ok");
	my %ok = %$ok;
	while ($code =~ /(?<![\w.>])($names)\s*(\((?:[^()]++|(?2))*\))/g) {
		my ($fn, $args_off, $args_len) = ($1, $-[2], length($2));
		my $line = LintC::line_at($code, $-[0]);
		next if $ok{$line};
		# A declaration or definition of a function with this name is not a call.
		my $before = substr($code, 0, $-[0]);
		next if $before =~ /\b(?:int|void|FILE\s*\*|char\s*\*|ssize_t|static)\s*$/;
		my $args = substr($src, $args_off, $args_len);
		my $masked = substr($code, $args_off, $args_len);
		my $msg;
		if (exists $banned{$fn}) {
			$msg = "$fn() cannot set close-on-exec: use $banned{$fn}";
		} elsif ($fn eq "fopen" || $fn eq "freopen") {
			# The mode is the second argument: a string literal holding "e".
			if ($args =~ /^\(\s*(?:[^,()]++|(\((?:[^()]++|(?1))*\)))*,\s*"([^"]*)"/) {
				$msg = "$fn() mode \"$2\" lacks \"e\" (O_CLOEXEC)" if $2 !~ /e/;
			} else {
				$msg = "$fn() without a literal mode: cannot check it holds \"e\"";
			}
		} elsif ($masked !~ /\b$flag{$fn}\b/) {
			$msg = "$fn() without $flag{$fn}";
		}
		next unless defined $msg;
		print "$file:$line: $msg\n";
		$bad = 1;
	}
}
exit $bad;
' "$@"
