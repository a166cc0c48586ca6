#!/bin/sh
# mix.sh CPUS TASKS [SEED] -- print a scenario of the engine benchmark's
# mix (tests/bench_engine.c): half CPU hogs, half sleepers with a pattern
# [1..5 run, 5..50 sleep], nice -10..10, from a fixed seed.
awk -v cpus="$1" -v n="$2" -v seed="${3:-1}" 'BEGIN {
	srand(seed)
	printf "name = \"mix-%d-%d\";\ncpus = %d;\ntasks = (\n", cpus, n, cpus
	for (i = 0; i < n; i++) {
		nice = int(rand() * 21) - 10
		printf "  { name = \"t%d\"; nice = %d;", i, nice
		if (i % 2 == 1)
			printf " pattern = [ %d, %d ];", 1 + int(rand() * 5),
			    5 + int(rand() * 46)
		printf " }%s\n", i < n - 1 ? "," : ""
	}
	print ");"
}'
