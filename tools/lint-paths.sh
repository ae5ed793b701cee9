#!/bin/sh
# lint-paths.sh [FILE.c|DIR ...]: no path is formatted without checking that it fit (STYLE.md
# point 18): a cut path names another file, so its truncation must be an error.
# Fails (exit 1, one "file:line: what" per finding) on:
#   fileio_fmt() whose result is discarded, by a (void) cast or as a statement of its own
#   (fileio_fmt is for paths; a message that may be cut is an snprintf);
#   snprintf() whose result is discarded when it writes a path: its buffer is named like one
#   (path, dir, file, tmp, link, target, prog, exe, sock, lock) or its literal format is
#   one ("/proc/%d", "%s/out": a '/' at its start or beside a %s or a name). Use fileio_fmt
#   and check it.
# Comments and string literals are not code. An snprintf that looks like one of those but
# cannot be cut or writes no path says which in a comment on its first line or the line above:
# "lint: sized to fit" (its buffer was sized for it) or "lint: not a path".
# Default: the C sources under src/ and confgen/.
set -u
cd "$(dirname "$0")/.." || exit 2
exec perl -Itools -MLintC -e '
use strict;
use warnings;
my $pathy = qr/path|dir|file|tmp|link|target|prog|exe|sock|lock/i;
my $bad = 0;
for my $file (LintC::c_files(@ARGV)) {
	my $src = LintC::slurp($file);
	my ($code, $ok) = LintC::mask($src, "lint: not a path");
	my (undef, $fits) = LintC::mask($src, "lint: sized to fit");
	while ($code =~ /(?<![\w.>])(snprintf|fileio_fmt)\s*(\((?:[^()]++|(?2))*\))/g) {
		my ($fn, $args_off, $args_len, $end) = ($1, $-[2], length($2), $+[0]);
		my $line = LintC::line_at($code, $-[0]);
		my $before = substr($code, 0, $-[0]);
		# A declaration or definition of a function with this name is not a call.
		next if $before =~ /\b(?:int|void)\s*$/;
		# Discarded: cast to void, or a statement of its own (after ; { } else, a case or
		# default label or the ")" of an if/for/while, and followed by ";"). Any other use
		# (an assignment, a comparison, a cast to a type, a ternary) reads the result.
		my $void = $before =~ /\(\s*void\s*\)\s*$/;
		my $stmt = $before =~ /(?:[;{}]|\belse|\bdefault\s*:|\bcase\b[^;{}?]*:|\))\s*$/ &&
		    $before !~ /\(\s*(?:unsigned|signed|int|long|size_t|ssize_t)[\s\w]*\)\s*$/ &&
		    substr($code, $end) =~ /^\s*;/;
		next unless $void || $stmt;
		my $msg;
		if ($fn eq "fileio_fmt") {
			$msg = "fileio_fmt() result discarded: a cut path must be an error";
		} else {
			next if grep { $ok->{$_} || $fits->{$_} } ($line - 1, $line);
			my $args = substr($src, $args_off + 1, $args_len - 2);
			my $masked = substr($code, $args_off + 1, $args_len - 2);
			my ($dst) = $masked =~ /^\s*([^,]*)/;
			# The format: the first string literal after the size argument.
			my ($fmt) = $args =~ /^(?:[^,"]*,){2}\s*("(?:\\.|[^"\\])*")/;
			# A path format: a leading "/", or a "/" beside a %s or a name ("%s/out",
			# "{prefix}/etc/x-%s"); "%u/%u" (a ratio) is none.
			next unless $dst =~ $pathy || (defined $fmt && $fmt =~ /%/ &&
			    $fmt =~ m!^"/|%[-.\d*]*s/|/(?:%[-.\d*]*s|[\w{.])!);
			$dst =~ s/\s+$//;
			$msg = "snprintf() into $dst unchecked: a cut path must be an error " .
			    "(fileio_fmt and check it, or mark \"lint: not a path\")";
		}
		print "$file:$line: $msg\n";
		$bad = 1;
	}
}
exit $bad;
' "$@"
