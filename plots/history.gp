# history.gp: one tool's releases in version order (rarplot --history): above, the fitted
# intercept (time of one run at size 0) of each release with its 95 % interval; below, the fitted
# slope (time each unit of the axis adds) with its 95 % interval. The anchor subject (sudo) is a
# grey band, its own 95 % interval; a dashed vertical line between two releases marks a step
# found by rarplot (src/fit/changepoint.h: adjacent t tests under Holm's control).
#
# Data only from TSV (rarplot writes data/history/LINE.tsv), parameters only with -e:
#   file     the TSV: order version intercept_ms lo hi slope_us lo hi     (required)
#   out      output file                                   (default 'history.png')
#   term     pngcairo | svg | pdfcairo                     (default 'pngcairo')
#   line     the name of the line of releases, for titles  (default: file)
#   axis     the fits' axis ("nb_tasks")                   (default 'nb_tasks')
#   anchor   the band's subject, '' for none               (default '')
#   anchor_i_lo, anchor_i_hi, anchor_s_lo, anchor_s_hi: the band's bounds (NaN: no band)
#   steps_i, steps_s  space-separated x positions of steps (order + 0.5)  (default '')
# Example: gnuplot -e "file='out/data/history/sr-cbor.tsv'; anchor='sudo'; anchor_i_lo=2.4; anchor_i_hi=2.5" plots/history.gp

if (!exists("file")) { print "history.gp: set file='LINE.tsv' with -e"; exit status 2 }
if (!exists("out")) out = 'history.png'
if (!exists("term")) term = 'pngcairo'
if (!exists("line")) line = file
if (!exists("axis")) axis = 'nb_tasks'
if (!exists("anchor")) anchor = ''
if (!exists("anchor_i_lo")) anchor_i_lo = NaN
if (!exists("anchor_i_hi")) anchor_i_hi = NaN
if (!exists("anchor_s_lo")) anchor_s_lo = NaN
if (!exists("anchor_s_hi")) anchor_s_hi = NaN
if (!exists("steps_i")) steps_i = ''
if (!exists("steps_s")) steps_s = ''

set encoding utf8
if (term eq 'svg') {
	set terminal svg size 1100,900 dynamic enhanced font 'Sans,13' background rgb 'white'
} else {
	if (term eq 'pdfcairo') {
		set terminal pdfcairo size 11in,9in enhanced font 'Sans,11'
	} else {
		set terminal pngcairo size 1100,900 enhanced font 'Sans,11' background rgb 'white'
	}
}
set output out
set datafile separator '\t'
set datafile commentschars '#'

stats file using 1 nooutput
n = STATS_max
set xrange [0.5:n + 0.5]
set xtics rotate by -45 nomirror
set grid ytics lc rgb '#dddddd'
set key top left opaque box lc rgb '#bbbbbb'
set style fill transparent solid 0.25 noborder

set multiplot layout 2,1 title sprintf('%s: its releases in version order, %s', line, (anchor eq '' ? 'no anchor' : anchor . ' as the grey band')) noenhanced

# The intercept.
set ylabel 'intercept (ms): one run at ' . axis . ' = 0' noenhanced
unset arrow
do for [s in steps_i] { set arrow from s, graph 0 to s, graph 1 nohead dt 2 lw 2 lc rgb '#d55e00' }
set yrange [0:*]
plot (anchor eq '' || anchor_i_lo != anchor_i_lo ? NaN : anchor_i_hi) with filledcurves y1=anchor_i_lo lc rgb '#888888' title sprintf('%s [95 %%]', anchor), \
     file using 1:3:4:5:xtic(2) with yerrorlines lc rgb '#0072b2' pt 7 lw 1.5 title sprintf('%s intercept [95 %%]', line), \
     NaN with lines dt 2 lw 2 lc rgb '#d55e00' title 'a step (rarplot --history)'

# The slope.
set ylabel sprintf('slope (us per %s)', axis) noenhanced
unset arrow
do for [s in steps_s] { set arrow from s, graph 0 to s, graph 1 nohead dt 2 lw 2 lc rgb '#d55e00' }
set yrange [*:*]
plot (anchor eq '' || anchor_s_lo != anchor_s_lo ? NaN : anchor_s_hi) with filledcurves y1=anchor_s_lo lc rgb '#888888' title sprintf('%s [95 %%]', anchor), \
     file using 1:6:7:8:xtic(2) with yerrorlines lc rgb '#009e73' pt 5 lw 1.5 title sprintf('%s slope [95 %%]', line), \
     NaN with lines dt 2 lw 2 lc rgb '#d55e00' title 'a step (rarplot --history)'
unset multiplot
