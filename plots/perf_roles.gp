# perf_roles.gp: time to authorise one command against the number of roles (at one task per role):
# measured points with their 95 % intervals and one fitted line per subject x format, each in its
# own look, with one legend entry per subject (point and line together, the fitted intercept and
# slope with its standard error); linear axes from 0, or log-log axes (logscale=1).
#
# Data only from TSV (rarplot writes them), parameters only with -e:
#   dir     directory of the TSV files                       (default '.')
#   files   space-separated TSV names in dir                  (required)
#   titles  space-separated legend names, one per file        (default: the file names)
#   weights space-separated 1/0: fit weighted by column 5     (default: all 0)
#   colors  space-separated '#RRGGBB', one per file           (default: gnuplot's line colours)
#   points  space-separated gnuplot point types, one per file (default: gnuplot's)
#   dashes  space-separated gnuplot dash types, one per file  (default: solid)
#   ends    space-separated sizes, one per file: where that tool refused the policy (its line
#           ends there with a mark, rarbench's meta.skipped_subjects "refusal"); 0: none (default)
#   out     output file                                       (default 'perf_roles.png')
#   term    pngcairo | svg | pdfcairo                         (default 'pngcairo')
#   stat    what y is: 'median', 'mean', 'median estimate' (default 'median')
#   band    1: columns 3-4 are a min-max band across hosts    (default 0: error bars)
#   logscale  1: log-log axes from the smallest to the largest size (default 0: linear from 0)
#   xlabel  x axis label                                      (default 'nb_roles')
#   unit    unit of the slope in the legend                   (default 'role')
#   figure_title  the title above the plot                    (default: below)
#   caption the line under the title: what the points, error bars and lines are (default none)
# rarplot passes colors, points and dashes from src/fit/plotstyle.c, the one table of the looks
# (every figure and format of every run draws a subject alike), and a caption naming the
# estimator, the error bars and the fit. The axes end at the data: x at the largest size.
# TSV columns: x y_ms ylow_ms yhigh_ms sigma_ms runs nb_roles nb_tasks ci_low_ms ci_high_ms
# ('#' lines are comments). The error bars are the 95 % interval of each point (columns 9-10;
# a point whose interval is unknown, NaN, gets none); columns 3-4 are its spread (quartiles).
# Example: gnuplot -e "dir='out/data/perf_roles'; files='01_sudo_sudoers.tsv'" plots/perf_roles.gp

if (!exists("files")) { print "perf_roles.gp: set files='a.tsv b.tsv' with -e"; exit status 2 }
if (!exists("dir")) dir = '.'
if (!exists("titles")) titles = files
if (!exists("weights")) weights = ''
if (!exists("colors")) colors = ''
if (!exists("points")) points = ''
if (!exists("dashes")) dashes = ''
if (!exists("ends")) ends = ''
if (!exists("out")) out = 'perf_roles.png'
if (!exists("term")) term = 'pngcairo'
if (!exists("stat")) stat = 'median'
if (!exists("band")) band = 0
if (!exists("logscale")) logscale = 0
if (!exists("xlabel")) xlabel = 'nb_roles'
if (!exists("unit")) unit = 'role'
if (!exists("figure_title")) figure_title = 'Time to authorise one command vs. number of roles'
if (!exists("caption")) caption = ''
# host: a line under the caption naming a host that interfered (rarplot, issue 51); '' when quiet
if (!exists("host")) host = ''

set encoding utf8
if (term eq 'svg') {
	set terminal svg size 1000,760 dynamic enhanced font 'Sans,13' background rgb 'white'
} else {
	if (term eq 'pdfcairo') {
		set terminal pdfcairo size 10in,7.6in enhanced font 'Sans,11'
	} else {
		set terminal pngcairo size 1000,760 enhanced font 'Sans,11' background rgb 'white'
	}
}
set output out

n = words(files)
array A[n]
array B[n]
array AE[n]
array BE[n]
set fit quiet nolog errorvariables
set fit limit 1e-12
set fit maxiter 1000
XMIN = 0
XMAX = 0
YMIN = 0
YMAX = 0
do for [i=1:n] {
	f = dir.'/'.word(files, i)
	# Start from stats' unweighted regression: fit needs non-zero starting values.
	stats f using 1:2 nooutput
	XMIN = (i == 1 || STATS_min_x < XMIN) ? STATS_min_x : XMIN
	XMAX = (i == 1 || STATS_max_x > XMAX) ? STATS_max_x : XMAX
	YMIN = (i == 1 || STATS_min_y < YMIN) ? STATS_min_y : YMIN
	YMAX = (i == 1 || STATS_max_y > YMAX) ? STATS_max_y : YMAX
	a = STATS_intercept != 0 ? STATS_intercept : 1.0
	b = STATS_slope != 0 ? STATS_slope : 1e-6
	if (STATS_stddev_y == 0) {
		# Every point at the same time: fit's matrix is singular; the line is that time.
		a = STATS_mean_y
		b = 0
		a_err = 0
		b_err = 0
	} else {
		if (word(weights, i) eq '1') {
			fit a + b*x f using 1:2:5 yerror via a, b
		} else {
			fit a + b*x f using 1:2 via a, b
		}
	}
	A[i] = a
	B[i] = b
	AE[i] = a_err
	BE[i] = b_err
	# Series i draws in line type i: its colour, point and dash when rarplot gives them.
	set linetype i lw 2 ps 0.9
	if (words(colors) >= i) { set linetype i lc rgb word(colors, i) }
	if (words(points) >= i) { set linetype i pt (word(points, i) + 0) }
	# (A dash type in parentheses would be read as a dash pattern: through a variable.)
	if (words(dashes) >= i) { dash = word(dashes, i) + 0; set linetype i dt dash }
}
# One legend entry per series: its point and line, the fitted intercept and slope.
# (A standard error below 1e-12 of its slope is rounding noise of an exact fit: shown as 0.)
legend(i) = sprintf('%s — %#.3g ms + %.4g ± %.2g µs/%s', word(titles, i), A[i], 1000*B[i], \
	(abs(BE[i]) <= 1e-12 * abs(B[i]) ? 0 : 1000*BE[i]), unit)

# The caption on two lines (points and bars; lines): one would run past a 1000-pixel figure.
cap_cut = strstrt(caption, '; lines:')
cap = cap_cut > 0 ? caption[1:cap_cut-1]."\n".caption[cap_cut+2:] : caption
set title figure_title.(caption ne '' ? "\n".cap : '').(host ne '' ? "\n".host : '') noenhanced
set xlabel xlabel noenhanced
set ylabel sprintf('%s per command, %s (ms)', (strstrt(stat, 'cpu') ? 'CPU time (user + system)' : 'wall time'), stat) noenhanced
set key outside below center box noenhanced spacing 1.2 width 1
set grid
set samples 400
set style fill transparent solid 0.18 noborder
if (logscale) {
	set logscale xy
	set xrange [XMIN:XMAX]
	set autoscale yfix
	set format x '%.0f'
	set format y '%g'
	set mxtics 10
	set mytics 10
	# 2 and 5 of every decade too: a decade of milliseconds is too coarse to read.
	do for [e=-3:6] { set ytics add (2 * 10.0**e, 5 * 10.0**e) }
	# Points within one decade may hold fewer than two of those (2.8-3.6 ms: none, and an axis
	# without numbers): then tics at a round step across the points too.
	NTICS = 0
	do for [e=-3:6] { do for [m=1:3] { v = (m == 3 ? 5 : m) * 10.0**e; NTICS = NTICS + (v >= YMIN && v <= YMAX) } }
	if (NTICS < 2 && YMAX > YMIN && YMIN > 0) {
		SPAN = YMAX - YMIN
		P = 10.0**floor(log10(SPAN))
		STEP = SPAN / P < 2 ? P / 5 : (SPAN / P < 5 ? P / 2 : 2 * P)
		do for [k=int(ceil(YMIN / STEP)):int(floor(YMAX / STEP))] { set ytics add (k * STEP) }
	}
	# Room above the highest bar and below the lowest, so no point hides under the border.
	set offsets 0, 0, graph 0.03, graph 0.03
} else {
	set format x '%.0f'
	set xrange [0:XMAX]
	set yrange [0:*]
	set autoscale yfixmax
	set offsets 0, 0, graph 0.03, 0
}

# A tool that refused a size (ends): its line stops there, with a cross and the size it cannot hold.
END(i) = words(ends) >= i ? word(ends, i) + 0 : 0
line(i, x) = (END(i) > 0 && x > END(i)) ? NaN : A[i] + B[i]*x
do for [i=1:n] {
	if (END(i) > 0) {
		set label sprintf('cannot hold %.0f', END(i)) at END(i), A[i] + B[i]*END(i) \
			point lt i pt 2 ps 2.5 offset 1,1 noenhanced
	}
}

if (band) {
	plot for [i=1:n] dir.'/'.word(files, i) using 1:3:4 with filledcurves lt i notitle, \
	     for [i=1:n] dir.'/'.word(files, i) using 1:2 with points lt i notitle, \
	     for [i=1:n] line(i, x) with lines lt i notitle, \
	     for [i=1:n] NaN with linespoints lt i title legend(i)
} else {
	plot for [i=1:n] dir.'/'.word(files, i) using 1:2:(valid(9) ? column(9) : $2):(valid(10) ? column(10) : $2) \
		with yerrorbars lt i dt solid lw 1 notitle, \
	     for [i=1:n] line(i, x) with lines lt i notitle, \
	     for [i=1:n] NaN with linespoints lt i title legend(i)
}
set output
