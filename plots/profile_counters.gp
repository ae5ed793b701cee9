# profile_counters.gp: what each subject's profile counts against the swept size: system calls per
# run (left) and bytes read per run (right), one line and point type per subject in the look of
# the time figures (src/fit/plotstyle.c), log-log axes (counts span decades).
#
# Data only from TSV (rarplot writes them), parameters only with -e:
#   dir     directory of the TSV files                       (default '.')
#   files   space-separated TSV names in dir                  (required)
#   titles  space-separated legend names, one per file        (default: the file names)
#   colors  space-separated '#RRGGBB', one per file           (default: gnuplot's line colours)
#   points  space-separated gnuplot point types, one per file (default: gnuplot's)
#   dashes  space-separated gnuplot dash types, one per file  (default: solid)
#   out     output file                                       (default 'profile_counters.png')
#   term    pngcairo | svg | pdfcairo                         (default 'pngcairo')
#   xlabel  x axis label                                      (default 'nb_tasks')
# TSV columns: x calls bytes_read (the mean over a point's profiles; '#' lines are comments).
# Example: gnuplot -e "dir='out/data/profile_counters'; files='01_sudo.tsv'" plots/profile_counters.gp

if (!exists("files")) { print "profile_counters.gp: set files='a.tsv b.tsv' with -e"; exit status 2 }
if (!exists("dir")) dir = '.'
if (!exists("titles")) titles = files
if (!exists("colors")) colors = ''
if (!exists("points")) points = ''
if (!exists("dashes")) dashes = ''
if (!exists("out")) out = 'profile_counters.png'
if (!exists("term")) term = 'pngcairo'
if (!exists("xlabel")) xlabel = 'nb_tasks'

set encoding utf8
if (term eq 'svg') {
	set terminal svg size 1200,560 dynamic enhanced font 'Sans,13' background rgb 'white'
} else {
	if (term eq 'pdfcairo') {
		set terminal pdfcairo size 12in,5.6in enhanced font 'Sans,11'
	} else {
		set terminal pngcairo size 1200,560 enhanced font 'Sans,11' background rgb 'white'
	}
}
set output out
n = words(files)
set logscale xy
set grid
set key top left noenhanced
set xlabel xlabel noenhanced
set multiplot layout 1,2 title 'Why it costs what it costs: the profile of each subject (strace, one run per point)'
# Each subject's look as a line type, as perf_tasks.gp sets them.
do for [i=1:n] {
	if (words(colors) >= i) { set linetype i lc rgb word(colors, i) }
	if (words(points) >= i) { set linetype i pt (word(points, i) + 0) }
	if (words(dashes) >= i) { dash = word(dashes, i) + 0; set linetype i dt dash }
}
set ylabel 'system calls per run'
plot for [i=1:n] dir.'/'.word(files, i) using 1:2 with linespoints lt i lw 1.5 title word(titles, i)
set ylabel 'bytes read per run'
plot for [i=1:n] dir.'/'.word(files, i) using 1:3 with linespoints lt i lw 1.5 notitle
unset multiplot
