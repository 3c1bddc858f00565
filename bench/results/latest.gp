set terminal pngcairo size 8880,700 noenhanced font ",9"
set output "bench/results/latest.png"
set title "Speedup over naive C (time of naive / time of variant), log scale; Intel(R) Xeon(R) Processor"
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set logscale y
set yrange [0.01:*]
set grid ytics
set ylabel "speedup over naive C"
set xtics rotate by -60 scale 0
set key outside right top
plot for [i=2:13] "bench/results/latest.dat" using i:xtic(1) title columnheader(i)
