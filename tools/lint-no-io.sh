#!/bin/sh
# lint-no-io.sh [DIR ...]: the statistics (src/fit/, src/fit/README.md) do no I/O: they compute
# over what the caller read and return it, or print it into a buffer the caller owns (snprintf);
# reading a file is src/results/'s, writing one or a stream src/fitio/'s.
# Fails (exit 1, one "file:line: what" per finding) on, in any .c or .h of the folders:
#   an #include of a header that opens, reads or writes: fileio.h, atomicfile.h, <fcntl.h>,
#   <dirent.h>, <unistd.h>, <sys/stat.h>, <sys/mman.h>;
#   the type FILE, or the streams stdin, stdout, stderr;
#   a call that opens, reads or writes a file, a stream or a descriptor, or runs a program:
#   fopen fdopen freopen fclose fflush fprintf vfprintf printf vprintf fputs puts fputc putc
#   putchar fwrite fread fgets fgetc getc getchar scanf fscanf perror open openat creat close
#   read write pread pwrite opendir readdir mkdir unlink rename remove stat lstat fstat access
#   readlink popen system exec*, and any fileio_*, atomicfile_* or sanitize_fputs.
# Comments and string literals are not code. snprintf, vsnprintf and jsonget over a tree the
# caller parsed are fine: they touch no file. Default: src/fit.
set -u
cd "$(dirname "$0")/.." || exit 2
[ $# -gt 0 ] || set -- src/fit
exec perl -Itools -MLintC -e '
use strict;
use warnings;
my $hdr = qr/^\s*#\s*include\s*[<"](fileio\.h|atomicfile\.h|fcntl\.h|dirent\.h|unistd\.h|sys\/stat\.h|sys\/mman\.h)[>"]/m;
my $call = qr/(?<![\w.>])(fopen|fdopen|freopen|fclose|fflush|fprintf|vfprintf|printf|vprintf|fputs|puts|fputc|putc|putchar|fwrite|fread|fgets|fgetc|getc|getchar|scanf|fscanf|perror|open|openat|creat|close|read|write|pread|pwrite|opendir|readdir|mkdir|unlink|rename|remove|stat|lstat|fstat|access|readlink|popen|system|exec[lv]p?e?|fileio_\w+|atomicfile_\w+|sanitize_fputs)\s*\(/;
my $bad = 0;
my @files;
for my $d (@ARGV) {
	opendir(my $dh, $d) or die "lint-no-io: $d: $!\n";
	push @files, map { "$d/$_" } sort grep { /\.[ch]$/ } readdir($dh);
	closedir($dh);
}
for my $file (@files) {
	my $src = LintC::slurp($file);
	my ($code) = LintC::mask($src, "lint: no-io");
	while ($src =~ /$hdr/g) {
		printf "%s:%d: includes %s: the statistics do no I/O (src/fit/README.md)\n",
		    $file, LintC::line_at($src, $-[0]), $1;
		$bad = 1;
	}
	while ($code =~ /(?<![\w.>])(FILE|stdin|stdout|stderr)\b/g) {
		printf "%s:%d: %s: a stream; the statistics do no I/O: print into a buffer, or move it to src/fitio\n",
		    $file, LintC::line_at($code, $-[0]), $1;
		$bad = 1;
	}
	while ($code =~ /$call/g) {
		my $fn = $1;
		# a declaration or definition of a function of that name is none of those calls
		next if substr($code, 0, $-[0]) =~ /\b(?:int|void|bool|size_t|double|char|ssize_t)\s*\**\s*$/;
		printf "%s:%d: %s(): the statistics do no I/O: move it to src/fitio (writing) or src/results (reading)\n",
		    $file, LintC::line_at($code, $-[0]), $fn;
		$bad = 1;
	}
}
exit $bad;
' "$@"
