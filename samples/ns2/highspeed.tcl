# highspeed.tcl - two long-lived flows of one congestion-control flavour (ns-2's Linux TCP,
# Agent/TCP/Linux with select_ca: highspeed, scalable, htcp, bic, cubic, reno) through one
# drop-tail bottleneck, for the high-speed TCP figures (docs/figures.md, tests/e2e/ns2_study.sh):
# throughput ratio against the RTT ratio (flow 2's access link adds EXTRA_MS each way) and cwnd
# against time.
#   ns highspeed.tcl FLAVOUR BW_MBIT OWD_MS QUEUE_PKTS EXTRA_MS SECONDS OUT.tr
# Node numbers: 0, 1 the routers; 2 -> 3 flow 1; 4 -> 5 flow 2 (tcptrace-ng reads node n as
# address 10.0.0.n).  Both flows start at 0.1 s.
set ca [lindex $argv 0]
set bw [lindex $argv 1]
set owd [lindex $argv 2]
set q [lindex $argv 3]
set extra [lindex $argv 4]
set dur [lindex $argv 5]
set out [lindex $argv 6]
set ns [new Simulator]
set tf [open $out w]
$ns trace-all $tf
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 ${bw}Mb ${owd}ms DropTail
$ns queue-limit $r1 $r2 $q
for {set i 0} {$i < 2} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    set acc [expr {$i == 1 ? 1 + $extra : 1}]
    $ns duplex-link $s($i) $r1 1000Mb ${acc}ms DropTail
    $ns duplex-link $r2 $d($i) 1000Mb 1ms DropTail
    set tcp($i) [new Agent/TCP/Linux]
    $tcp($i) set timestamps_ true
    $tcp($i) set window_ 100000
    $tcp($i) set packetSize_ 1448
    $tcp($i) set fid_ $i
    $ns at 0 "$tcp($i) select_ca $ca"
    set sink($i) [new Agent/TCPSink/Sack1]
    $sink($i) set ts_echo_rfc1323_ true
    $ns attach-agent $s($i) $tcp($i)
    $ns attach-agent $d($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at 0.1 "$ftp($i) start"
}
$ns at $dur "close $tf; exit 0"
$ns run
