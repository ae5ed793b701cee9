# LintC.pm: C source made searchable for the tools/lint-*.sh rules (STYLE.md point 18).
# mask($src, $marker) returns ($code, \%ok): $code is $src with comments blanked (newlines kept)
# and string and char literals reduced to their quotes around x's, every offset unchanged, so
# a call is found in $code and read in $src; %ok holds the lines whose comment holds $marker
# (a call that must stay as it is says so, and why, in a comment on its first line).
# line_at($code, $offset) is the 1-based line of an offset.
# slurp($file) is the text of a file.
# c_files(@args) lists the .c files below the files or folders given (default: src and
# confgen, the tree's C sources), sorted.
package LintC;
use strict;
use warnings;
use File::Find;

sub c_files {
	my @roots = @_ ? @_ : ("src", "confgen");
	my @found;
	find({ wanted => sub { push @found, $File::Find::name if -f $_ && /\.c$/ }, no_chdir => 1 },
	    @roots);
	return sort @found;
}

sub mask {
	my ($src, $marker) = @_;
	my $code = $src;
	my %ok;
	$code =~ s{(/\*.*?\*/|//[^\n]*)|("(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27)}{
		my ($c, $s, $at) = ($1, $2, $-[0]);
		if (defined $c) {
			$ok{1 + (substr($src, 0, $at) =~ tr/\n//)} = 1 if index($c, $marker) >= 0;
			(my $b = $c) =~ s/[^\n]/ /g; $b
		} else {
			substr($s, 0, 1) . ("x" x (length($s) - 2)) . substr($s, -1)
		}
	}gse;
	return ($code, \%ok);
}

sub slurp {
	my ($file) = @_;
	open(my $fh, "<", $file) or die "$file: $!\n";
	local $/;
	my $text = <$fh>;
	close($fh);
	return $text;
}

sub line_at {
	my ($code, $off) = @_;
	return 1 + (substr($code, 0, $off) =~ tr/\n//);
}

1;
