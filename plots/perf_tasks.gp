# perf_tasks.gp: time to authorise one command against the number of tasks (at one role),
# measured points with their spread and one fitted line per subject x format, slope in the legend.
#
# Data only from TSV (rarplot writes them), parameters only with -e:
#   dir     directory of the TSV files                       (default '.')
#   files   space-separated TSV names in dir                  (required)
#   titles  space-separated legend names, one per file        (default: the file names)
#   weights space-separated 1/0: fit weighted by column 5     (default: all 0)
#   out     output file                                       (default 'perf_tasks.png')
#   term    pngcairo | svg | pdfcairo                         (default 'pngcairo')
#   stat    what y is: 'median', 'mean', 'median estimate' (default 'median')
#   band    1: columns 3-4 are a min-max band across hosts    (default 0: error bars)
#   xlabel  x axis label                                      (default 'nb_tasks')
#   unit    unit of the slope in the legend                   (default 'task')
#   figure_title  the title above the plot                    (default: below)
# TSV columns: x y_ms ylow_ms yhigh_ms sigma_ms runs nb_roles nb_tasks ci_low_ms ci_high_ms
# ('#' lines are comments). The error bars are the 95 % interval of each point (columns 9-10;
# a point whose interval is unknown, NaN, gets none); columns 3-4 are its spread (quartiles).
# Example: gnuplot -e "dir='out/data/perf_tasks'; files='01_sudo_sudoers.tsv'" plots/perf_tasks.gp

if (!exists("files")) { print "perf_tasks.gp: set files='a.tsv b.tsv' with -e"; exit status 2 }
if (!exists("dir")) dir = '.'
if (!exists("titles")) titles = files
if (!exists("weights")) weights = ''
if (!exists("out")) out = 'perf_tasks.png'
if (!exists("term")) term = 'pngcairo'
if (!exists("stat")) stat = 'median'
if (!exists("band")) band = 0
if (!exists("xlabel")) xlabel = 'nb_tasks'
if (!exists("unit")) unit = 'task'
if (!exists("figure_title")) figure_title = 'Time to authorise one command vs. number of tasks'

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
do for [i=1:n] {
	f = dir.'/'.word(files, i)
	# Start from stats' unweighted regression: fit needs non-zero starting values.
	stats f using 1:2 nooutput
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
}

set title figure_title
set xlabel xlabel noenhanced
set ylabel sprintf('wall time per command, %s (ms)', stat)
set key outside below center box noenhanced spacing 1.2 width 1
set grid
set format x '%.0f'
set xrange [0:*]
set yrange [0:*]
# Room beside the last size and above the highest bar, so nothing hides under the border.
set offsets 0, graph 0.03, graph 0.05, 0
set samples 400
set style fill transparent solid 0.18 noborder

if (band) {
	plot for [i=1:n] dir.'/'.word(files, i) using 1:3:4 with filledcurves lc i \
		title sprintf('%s (min–max over hosts)', word(titles, i)), \
	     for [i=1:n] dir.'/'.word(files, i) using 1:2 with points lc i pt 7 ps 0.8 \
		title sprintf('%s (median over hosts)', word(titles, i)), \
	     for [i=1:n] A[i] + B[i]*x with lines lc i lw 2 \
		title sprintf('%s fit (median over hosts): %.4g ± %.2g µs/%s', word(titles, i), 1000*B[i], 1000*BE[i], unit)
} else {
	plot for [i=1:n] dir.'/'.word(files, i) using 1:2:(valid(9) ? column(9) : $2):(valid(10) ? column(10) : $2) \
		with yerrorbars lc i pt 7 ps 0.8 title sprintf('%s (%s, 95 %% CI)', word(titles, i), stat), \
	     for [i=1:n] A[i] + B[i]*x with lines lc i lw 2 \
		title sprintf('%s fit: %.4g ± %.2g µs/%s', word(titles, i), 1000*B[i], 1000*BE[i], unit)
}
set output
