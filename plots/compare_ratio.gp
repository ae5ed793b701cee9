# compare_ratio.gp: rarplot --compare's figure: the candidate's time over the baseline's against
# the size, each the ratio of the two fitted lines at that size (paired per round when the sweep
# allows, as the verdict), with its 95 % interval as a band; the threshold of the verdict
# (1 ± noise) as dashed lines and 1 (no change) as a solid one. Above 1 the candidate is slower.
#
# Data only from TSV (rarplot writes comparison-ratio.tsv), parameters only with -e:
#   file     the TSV                                          (required)
#   out      output file                                      (default 'comparison-ratio.png')
#   term     pngcairo | svg | pdfcairo                        (default 'pngcairo')
#   noise    the verdict's threshold, a fraction              (default 0.02)
#   logscale 1: log x axis (log-spaced sizes)                 (default 0)
#   xlabel   x axis label                                     (default 'nb_tasks')
#   figure_title  the title                                   (default below)
#   caption  the line under the title                         (default none)
# TSV columns: size ratio lo hi ('#' lines are comments).
# Example: gnuplot -e "file='out/comparison-ratio.tsv'" plots/compare_ratio.gp

if (!exists("file")) { print "compare_ratio.gp: set file='comparison-ratio.tsv' with -e"; exit status 2 }
if (!exists("out")) out = 'comparison-ratio.png'
if (!exists("term")) term = 'pngcairo'
if (!exists("noise")) noise = 0.02
if (!exists("logscale")) logscale = 0
if (!exists("xlabel")) xlabel = 'nb_tasks'
if (!exists("figure_title")) figure_title = 'Candidate / baseline against size'
if (!exists("caption")) caption = ''
# host: a line under the caption naming a host that interfered (rarplot, issue 51); '' when quiet
if (!exists("host")) host = ''

set encoding utf8
if (term eq 'svg') {
	set terminal svg size 1000,640 dynamic enhanced font 'Sans,13' background rgb 'white'
} else {
	if (term eq 'pdfcairo') {
		set terminal pdfcairo size 10in,6.4in enhanced font 'Sans,11'
	} else {
		set terminal pngcairo size 1000,640 enhanced font 'Sans,11' background rgb 'white'
	}
}
set output out

stats file using 1 nooutput
XMIN = STATS_min
XMAX = STATS_max
set title figure_title.(caption ne '' ? "\n".caption : '').(host ne '' ? "\n".host : '') noenhanced
set xlabel xlabel noenhanced
set ylabel 'candidate / baseline (time ratio)' noenhanced
set key outside below center box noenhanced spacing 1.2
set grid
set format x '%.0f'
set style fill transparent solid 0.25 noborder
if (logscale) {
	set logscale x
	set mxtics 10
}
if (XMAX > XMIN) { set xrange [XMIN:XMAX] }
set offsets 0, 0, graph 0.05, graph 0.05

plot file using 1:3:4 with filledcurves lc rgb '#0072B2' title '95 % interval of the ratio', \
     file using 1:2 with linespoints lc rgb '#0072B2' lw 2 pt 7 ps 0.8 title 'ratio of the fitted lines', \
     1 with lines lc rgb 'black' lw 1 title 'no change (1)', \
     1 + noise with lines lc rgb '#D55E00' dt 2 lw 1 title sprintf('threshold ±%g %%', 100 * noise), \
     1 - noise with lines lc rgb '#D55E00' dt 2 lw 1 notitle
set output
