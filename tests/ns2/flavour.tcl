# flavour.tcl - one ns-2 run for the congestion-control flavour tests (tests/ns2/grade.sh):
# N senders (Agent/TCP/Linux, select_ca FLAVOUR) share a drop-tail bottleneck of BW Mbit/s,
# one-way delay OWD ms, QUEUE packets; each sender's cwnd_ is traced (trace-var) as ground truth.
#   ns flavour.tcl FLAVOUR BW_MBIT OWD_MS QUEUE_PKTS SECONDS NFLOWS OUTPREFIX
set ca [lindex $argv 0]
set bw [lindex $argv 1]
set owd [lindex $argv 2]
set q [lindex $argv 3]
set dur [lindex $argv 4]
set nflows [lindex $argv 5]
set out [lindex $argv 6]
set ns [new Simulator]
set tf [open $out.tr w]
$ns trace-all $tf
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 ${bw}Mb ${owd}ms DropTail
$ns queue-limit $r1 $r2 $q
set cf [open $out.cwnd w]
for {set i 0} {$i < $nflows} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 1000Mb 1ms DropTail
    $ns duplex-link $r2 $d($i) 1000Mb 1ms DropTail
    set tcp($i) [new Agent/TCP/Linux]
    $tcp($i) set timestamps_ true
    $tcp($i) set window_ 100000
    $tcp($i) set windowInit_ 10
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
    $tcp($i) attach $cf
    $tcp($i) trace cwnd_
    $ns at [expr 0.1 + 0.5 * $i] "$ftp($i) start"
}
$ns at $dur "close $tf; close $cf; exit 0"
$ns run
