#!/usr/bin/env bash
# mpi_shards.sh - the same run under mpirun -np 1, 2 and 3 over a sample cut into time-ordered
# pieces (editcap -c) gives the outputs of one process (cluster/cluster_mpi.c, docs/cluster.md):
#  - connections.csv, senders.csv, events.csv, series.csv, packets.csv, dfcp_blocks.csv and the
#    -l report are byte for byte those of one process on the whole files (three samples read as
#    one trace: several parallel connections, a lossy CUBIC transfer, DFCP; the second sample
#    is older than the first, so ranks also wait for the ranks before them), also when ranks
#    may hold no records for later (TN_CLUSTER_HOLD_MB=0: they read in turn) in rounds of 100
#    packets, and with threads inside the ranks (-np 2 -j 3);
#  - --timeline, --json, the fairness and parallel-transfer sections and every figure are those
#    of one process on the same pieces (packet numbers restart in each file, as in one process);
#  - connections retired during the run travel to rank 0 as they retire, and one retired and
#    brought back by a late packet (its port reused) counts once, as its last version;
#  - a window (--from/--to, and from each connection's first packet) divided among the ranks
#    counts what one process counts, also when a later file is older (the base moves back);
#  - the pieces of one connection land on different ranks (the report of -np 3 says so);
#  - an experiment of three traces under -np 3 (a rank per trace) and two capture points around
#    a router under -np 2 and 3 (a rank per point: rank 1 reads the egress files), also with
#    each point in pieces and a bad and a cut egress file, give one process's report, CSV
#    files, warnings and exit status;
#  - a file that is no trace, read by rank 1, ends the whole job (exit 2, no hang) with a
#    message naming the rank and the file.
# Open MPI leaks its own allocations at exit: under ASan the leak check skips libmpi and
# libopen-pal only (tests/e2e/lsan-mpi.supp).
# The launcher is mpirun (Open MPI's, the default build's), or TN_MPIRUN: MPICH's Hydra
# (TN_MPIRUN=mpiexec.mpich with a binary built against MPICH, docs/cluster.md).
# Args: $1 binary, $2 corpus dir (unused), $3 source dir.  Exit 0 pass, 1 fail, 77 skip.
set -u
bin=$1
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
launcher=${TN_MPIRUN:-mpirun}
command -v "$launcher" >/dev/null || { echo "mpi_shards: no $launcher; skip"; exit 77; }
command -v editcap >/dev/null || { echo "mpi_shards: no editcap; skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/e2e/mpi_launch.bash"   # mpi, envx
fail=0

# A build without MPI refuses to run as several processes: nothing to test then.
"${mpi[@]}" -np 2 "$bin" -q "$src/samples/loopback-iperf3.pcap" >"$tmp/probe" 2>&1
if grep -q "built without MPI" "$tmp/probe"; then
    echo "mpi_shards: this build has no MPI; skip"
    exit 77
fi

cut_sample() {   # sample, packets per piece, folder
    mkdir -p "$3"
    editcap -c "$2" "$1" "$3/piece.pcap" || exit 1
}

same() {   # what, file a, file b
    if ! cmp -s "$2" "$3"; then
        echo "FAIL: $1 differs: $(diff "$2" "$3" | head -5)"
        fail=1
    fi
}

# 1. -l and every CSV against one process on the whole files: three samples (several parallel
# connections, a lossy CUBIC transfer, DFCP) read as one trace, each cut into pieces
wholes=() pieces=()
cut=(loopback-iperf3-parallel.pcap:60 cubic-loss1-owd10/snd1_eth0.pcap:500 dfcp-loss/snd1_eth0.pcap:800)
for k in "${!cut[@]}"; do
    f=$src/samples/${cut[$k]%:*}
    [ -f "$f" ] || { echo "mpi_shards: no sample $f; skip"; exit 77; }
    cut_sample "$f" "${cut[$k]#*:}" "$tmp/pieces$k"
    wholes+=("$f")
    pieces+=("$tmp/pieces$k"/piece*.pcap)
done
d=$tmp/whole
mkdir -p "$d"
"$bin" -l --csv "$d/one" "${wholes[@]}" >"$d/one.txt" 2>"$d/one.err" || { echo "FAIL: one process: $(cat "$d/one.err")"; fail=1; }
# 3h: three ranks that may hold no record for later (only the first unfinished rank reads), in
# rounds of 100 packets
# 2j: two ranks of three analysis threads each (-j 3)
for np in 1 2 3 3h 2j; do
    hold=() threads=()
    [ $np = 3h ] && mapfile -t hold < <(envx TN_CLUSTER_HOLD_MB=0 TN_CLUSTER_ROUND=100)
    [ $np = 2j ] && threads=(-j 3)
    "${mpi[@]}" "${hold[@]}" -np ${np%[hj]} "$bin" "${threads[@]}" -l --csv "$d/np$np" "${pieces[@]}" >"$d/np$np.txt" 2>"$d/np$np.err" ||
        { echo "FAIL: -np $np exit $?: $(tail -3 "$d/np$np.err")"; fail=1; continue; }
    same "-np $np -l" "$d/one.txt" "$d/np$np.txt"
    for f in "$d"/one/*.csv; do
        same "-np $np $(basename "$f")" "$f" "$d/np$np/$(basename "$f")"
    done
done
echo "mpi_shards: ${#wholes[@]} samples in ${#pieces[@]} pieces, $(($(wc -l <"$d/one/connections.csv") - 1)) connections," \
     "$(($(wc -l <"$d/one/events.csv") - 1)) events, $(ls "$d/one" | wc -l) CSV files: -np 1 2 3 (3 reading in turn, 2 with -j 3) = one process"

# 1b. connections retired during the run (closed both ways and quiet: issue 12's store) go to
# rank 0 with the rounds, and rank 0 keeps only their brief: eight lab captures in time order,
# in pieces, in rounds of 200 packets, then the first one again 130 s later (every port
# reused): a rank other than 0 keeps no copy of a connection it sent, so the later packets of
# its endpoints go to rank 0 with the rounds and are analysed there; -l and every CSV file are
# one process's, also with -j 3 inside the ranks
d=$tmp/retired
mkdir -p "$d"
rpieces=()
for s in reno-smallq cubic-loss1-owd10 cubic-loss1-owd100 dumbbell-cubic-rtt parkinglot-cubic cubic-owd5 cubic-owd25 cubic-owd50; do
    [ -f "$src/samples/$s/snd1_eth0.pcap" ] || { echo "mpi_shards: no sample $s; skip"; exit 77; }
    cut_sample "$src/samples/$s/snd1_eth0.pcap" 700 "$d/$s"
    rpieces+=("$d/$s"/piece*.pcap)
done
editcap -t 130 "$src/samples/reno-smallq/snd1_eth0.pcap" "$d/late.pcap" || exit 1
rpieces+=("$d/late.pcap")
"$bin" -l --csv "$d/one" "${rpieces[@]}" >"$d/one.txt" 2>"$d/one.err" || { echo "FAIL: one process (retired): $(cat "$d/one.err")"; fail=1; }
for np in 2 3 3j; do
    threads=()
    [ $np = 3j ] && threads=(-j 3)
    "${mpi[@]}" $(envx TN_CLUSTER_ROUND=200 TN_CLUSTER_REPORT=1) -np ${np%j} "$bin" "${threads[@]}" -l --csv "$d/np$np" "${rpieces[@]}" \
        >"$d/np$np.txt" 2>"$d/np$np.err" || { echo "FAIL: retired -np $np exit $?: $(tail -3 "$d/np$np.err")"; fail=1; continue; }
    same "retired -np $np -l" "$d/one.txt" "$d/np$np.txt"
    for f in "$d"/one/*.csv; do
        same "retired -np $np $(basename "$f")" "$f" "$d/np$np/$(basename "$f")"
    done
done
# the run did what it is meant to: ranks other than 0 retired connections during the run, and
# later packets of them went to rank 0 (-np 3: a connection of the late copy is rank 1's)
streamed=$(sed -n 's/^rank 0: .*(\([0-9]*\) retired during the run).*/\1/p' "$d/np3.err")
late=$(sed -n 's/^rank [12]: connections to rank 0: .*, \([0-9]*\) later packets of them.*/\1/p' "$d/np3.err" |
       awk '{ s += $1 } END { print s + 0 }')
if [ -z "$streamed" ] || [ "$streamed" -eq 0 ] || [ "$late" -eq 0 ]; then
    echo "FAIL: retired -np 3: rank 0 got no connection retired during the run, or no later packet of one: '$streamed' '$late'"
    fail=1
fi
# the connection list and -q's summary read only briefs: the ranks keep the bytes, send rank 0
# the briefs, and bring a connection back from their own store at a late packet
for opt in list -q; do
    args=()
    [ $opt = -q ] && args=(-q)
    "$bin" "${args[@]}" "${rpieces[@]}" >"$d/one$opt.txt" 2>"$d/one$opt.err" || { echo "FAIL: one process ($opt): $(cat "$d/one$opt.err")"; fail=1; }
    for np in 2 3 3j; do
        threads=()
        [ $np = 3j ] && threads=(-j 3)
        "${mpi[@]}" $(envx TN_CLUSTER_ROUND=200 TN_CLUSTER_REPORT=1) -np ${np%j} "$bin" "${threads[@]}" "${args[@]}" "${rpieces[@]}" \
            >"$d/np$np$opt.txt" 2>"$d/np$np$opt.err" || { echo "FAIL: retired $opt -np $np exit $?: $(tail -3 "$d/np$np$opt.err")"; fail=1; continue; }
        same "retired $opt -np $np" "$d/one$opt.txt" "$d/np$np$opt.txt"
    done
    if ! grep -q "^rank 1: connections to rank 0 (their briefs alone): [1-9]" "$d/np3$opt.err"; then
        echo "FAIL: retired $opt -np 3: rank 1 sent no brief alone: $(grep '^rank 1: conn' "$d/np3$opt.err")"
        fail=1
    fi
done
echo "mpi_shards: $(($(wc -l <"$d/one/connections.csv") - 1)) connections, retired during the run and sent to rank 0" \
     "as they go (-np 3: $streamed of them, $late later packets analysed on rank 0): -np 2 3 (and -j 3) = one process"

# 1b'. every option whose outputs read whole connections, in a run that retires them (the man
# page's options, written out here, not taken from cli/outputs.c): rank 1 sends rank 0 the
# connections' bytes, not their briefs alone (an output read from briefs alone would read bytes
# rank 0 does not have: tn_outputs_briefs_only), and the report is one process's.  (--plot,
# --parallel-window, --queue-estimate, --truth and two capture points keep every connection in
# memory: nothing retires there, tn_retire_setup.)
whole_opts=("-l" "--timeline" "--csv DIR" "--json DIR/s.json" "--json -" "--xplot DIR" "--fairness-by conn" "-o 3"
            "--connection 10.1.1.2:40001-10.9.1.2:5201" "-q -o 2-4" "-q --from 20" "-q --to 60")
for k in "${!whole_opts[@]}"; do
    for run in one np2; do   # DIR: the run's own folder, compared with the other's
        mkdir -p "$d/w$k-$run"
        # shellcheck disable=SC2206  # the option's words
        args=(${whole_opts[$k]//DIR/$d/w$k-$run})
        launch=()
        [ $run = np2 ] && launch=("${mpi[@]}" $(envx TN_CLUSTER_ROUND=200 TN_CLUSTER_REPORT=1) -np 2)
        "${launch[@]}" "$bin" "${args[@]}" "${rpieces[@]}" >"$d/w$k-$run.txt" 2>"$d/w$k-$run.err" ||
            { echo "FAIL: ${whole_opts[$k]} $run exit $?: $(tail -3 "$d/w$k-$run.err")"; fail=1; }
    done
    same "${whole_opts[$k]} -np 2" "$d/w$k-one.txt" "$d/w$k-np2.txt"
    diff -r "$d/w$k-one" "$d/w$k-np2" >/dev/null || { echo "FAIL: ${whole_opts[$k]} -np 2: files differ"; fail=1; }
    if ! grep -q "^rank 1: connections to rank 0: [1-9][0-9]* retired during the run" "$d/w$k-np2.err"; then
        echo "FAIL: ${whole_opts[$k]} -np 2: rank 1 sent briefs alone or retired nothing: $(grep '^rank 1: conn' "$d/w$k-np2.err")"
        fail=1
    fi
done
echo "mpi_shards: ${#whole_opts[@]} option sets that read whole connections: rank 1 sends them whole, -np 2 = one process"

# 1c. a window (--from/--to) divided among the ranks: a record carries the earliest time stamp
# its reader had read (the window's base is the earliest so far), so a later rank's packets
# count from the trace's first packet as in one process: the lab captures in time order (a
# window 20-60 s in, and one per connection), and section 1's pieces, whose second sample is
# older than the first (the base moves back with it)
d=$tmp/window
mkdir -p "$d"
wins=("--from 20 --to 60" "--time-base conn --from 0.5 --to 1.5" "--from 1 --to 2.5")
for k in 0 1 2; do
    in=("${rpieces[@]}")
    [ $k = 2 ] && in=("${pieces[@]}")
    # shellcheck disable=SC2086  # the window's words
    "$bin" ${wins[$k]} -l --csv "$d/one$k" "${in[@]}" >"$d/one$k.txt" 2>"$d/one$k.err" ||
        { echo "FAIL: one process ${wins[$k]}: $(cat "$d/one$k.err")"; fail=1; }
    for np in 2 3; do
        # shellcheck disable=SC2086
        "${mpi[@]}" $(envx TN_CLUSTER_ROUND=200) -np $np "$bin" ${wins[$k]} -l --csv "$d/np$np-$k" "${in[@]}" \
            >"$d/np$np-$k.txt" 2>"$d/np$np-$k.err" || { echo "FAIL: -np $np ${wins[$k]} exit $?"; fail=1; continue; }
        same "-np $np ${wins[$k]} -l" "$d/one$k.txt" "$d/np$np-$k.txt"
        for f in "$d/one$k"/*.csv; do
            same "-np $np ${wins[$k]} $(basename "$f")" "$f" "$d/np$np-$k/$(basename "$f")"
        done
    done
    [ "$(grep -c '^TCP connection' "$d/one$k.txt")" -gt 0 ] || { echo "FAIL: ${wins[$k]}: no connection in the window"; fail=1; }
done
echo "mpi_shards: windows (${wins[*]}): -np 2 3 = one process"

# 2. the views and figures against one process on the same pieces
d=$tmp/views
mkdir -p "$d"
views=(--timeline --fairness-by conn --parallel-window 1000 --json "$d/VIEW.json" --plot "$d/VIEW-fig")
"$bin" "${views[@]//VIEW/one}" "${pieces[@]}" >"$d/v-one.txt" 2>"$d/v-one.err" || fail=1
mapfile -t rep < <(envx TN_CLUSTER_REPORT=1 TN_CLUSTER_ROUND=300)
"${mpi[@]}" "${rep[@]}" -np 3 "$bin" "${views[@]//VIEW/np3}" "${pieces[@]}" \
    >"$d/v-np3.txt" 2>"$d/v-np3.err" || { echo "FAIL: views -np 3: $(tail -3 "$d/v-np3.err")"; fail=1; }
same "views -np 3 text" "$d/v-one.txt" "$d/v-np3.txt"
same "views -np 3 --json" "$d/one.json" "$d/np3.json"
nfig=0
for f in "$d"/one-fig/*; do
    same "figure $(basename "$f")" "$f" "$d/np3-fig/$(basename "$f")"
    nfig=$((nfig + 1))
done
[ "$nfig" -gt 0 ] || { echo "FAIL: no figure written"; fail=1; }
# every rank owned connections and sent records to the others
owners=$(grep -c 'connections owned' "$d/v-np3.err")
sent=$(grep -c 'to other ranks: [1-9][0-9]* bytes' "$d/v-np3.err")
[ "$owners" = 3 ] && [ "$sent" -ge 2 ] ||
    { echo "FAIL: rank reports: $owners of 3, $sent sending: $(cat "$d/v-np3.err")"; fail=1; }
echo "mpi_shards: timeline, fairness, parallel, JSON and $nfig figures: -np 3 = one process on the pieces"
grep 'to other ranks' "$d/v-np3.err" | sed 's/^/mpi_shards:   /'

# 3. an experiment (a rank per trace) and a two-point router capture (rank 0 alone) as one process
exp=()
for t in cubic-owd5 cubic-owd25 cubic-owd50; do
    exp+=(--experiment "$t=$src/samples/$t/snd1_eth0.pcap")
done
"$bin" "${exp[@]}" --csv "$tmp/exp-one" >"$tmp/exp-one.txt" 2>&1 || fail=1
"${mpi[@]}" -np 3 "$bin" "${exp[@]}" --csv "$tmp/exp-np3" >"$tmp/exp-np3.txt" 2>"$tmp/exp-np3.err" ||
    { echo "FAIL: experiment -np 3: $(tail -3 "$tmp/exp-np3.err")"; fail=1; }
same "experiment -np 3 report" "$tmp/exp-one.txt" "$tmp/exp-np3.txt"
same "experiment -np 3 experiment.csv" "$tmp/exp-one/experiment.csv" "$tmp/exp-np3/experiment.csv"
q=$src/samples/cubic-queue-4points
two=(-l --ingress "$q/rtr_s1.pcap" --egress "$q/rtr_bn0.pcap")
"$bin" "${two[@]}" --csv "$tmp/two-one" >"$tmp/two-one.txt" 2>&1 || fail=1
mapfile -t rep < <(envx TN_CLUSTER_REPORT=1)
for np in 2 3; do
    "${mpi[@]}" "${rep[@]}" -np $np "$bin" "${two[@]}" --csv "$tmp/two-np$np" >"$tmp/two-np$np.txt" 2>"$tmp/two-np$np.err" ||
        { echo "FAIL: two points -np $np: $(tail -3 "$tmp/two-np$np.err")"; fail=1; }
    same "two points -np $np report" "$tmp/two-one.txt" "$tmp/two-np$np.txt"
    for f in "$tmp"/two-one/*.csv; do
        same "two points -np $np $(basename "$f")" "$f" "$tmp/two-np$np/$(basename "$f")"
    done
    # a rank per capture point: rank 1 read the egress file and sent its packets to rank 0
    grep -q "rank 1: the egress point's 1 files, [1-9][0-9]* packets sent to rank 0" "$tmp/two-np$np.err" ||
        { echo "FAIL: two points -np $np: rank 1 did not read the egress point: $(cat "$tmp/two-np$np.err")"; fail=1; }
done
# each point in pieces, the egress one with a file that is no trace and a cut one among them: the
# same report, CSV files, warnings and exit status (2) as one process
editcap -c 1500 "$q/rtr_s1.pcap" "$tmp/in.pcap" && editcap -c 1000 "$q/rtr_bn0.pcap" "$tmp/eg.pcap" || exit 1
printf 'not a capture\n' >"$tmp/eg_bad.pcap"
cutfrom=$(ls "$tmp"/eg_*.pcap | sed -n 2p)
head -c $(($(stat -c %s "$cutfrom") - 50)) "$cutfrom" >"$tmp/eg_zcut.pcap"
two=(-l)
for f in "$tmp"/in_*.pcap; do two+=(--ingress "$f"); done
for f in "$tmp"/eg_*.pcap; do two+=(--egress "$f"); done
"$bin" "${two[@]}" --csv "$tmp/twop-one" >"$tmp/twop-one.txt" 2>"$tmp/twop-one.err"
rc1=$?
"${mpi[@]}" -np 2 "$bin" "${two[@]}" --csv "$tmp/twop-np2" >"$tmp/twop-np2.txt" 2>"$tmp/twop-np2.err"
rc2=$?
[ $rc1 = 2 ] && [ $rc2 = 2 ] || { echo "FAIL: two points in pieces: exit $rc1 alone, $rc2 at -np 2 (2 expected)"; fail=1; }
same "two points in pieces -np 2 report" "$tmp/twop-one.txt" "$tmp/twop-np2.txt"
for f in "$tmp"/twop-one/*.csv; do
    same "two points in pieces -np 2 $(basename "$f")" "$f" "$tmp/twop-np2/$(basename "$f")"
done
for w in "eg_bad.pcap: not a packet trace" "eg_zcut.pcap: truncated in packet"; do
    grep -q "$w" "$tmp/twop-one.err" && grep -q "$w" "$tmp/twop-np2.err" ||
        { echo "FAIL: two points in pieces: '$w' not told by both"; fail=1; }
done
echo "mpi_shards: experiment of 3 traces (-np 3) and two capture points (-np 2, 3; in pieces with a bad and a cut egress file at -np 2), rank 1 reading the egress point: as one process"

# 4. an input no rank can read ends the job, naming the rank and the file
printf 'not a capture\n' >"$tmp/bad.pcap"
timeout 120 "${mpi[@]}" -np 2 "$bin" -q "$src/samples/loopback-iperf3.pcap" "$tmp/bad.pcap" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
if [ $rc -eq 124 ]; then
    echo "FAIL: the job hung on an unreadable file"
    fail=1
elif [ $rc -eq 0 ] || ! grep -q "rank 1: .*bad.pcap" "$tmp/bad.err"; then
    echo "FAIL: unreadable file: exit $rc, stderr: $(head -5 "$tmp/bad.err")"
    fail=1
else
    echo "mpi_shards: unreadable file: exit $rc, $(grep -m1 'rank 1:' "$tmp/bad.err")"
fi

[ $fail -eq 0 ] && echo "mpi_shards: ok"
exit $fail
