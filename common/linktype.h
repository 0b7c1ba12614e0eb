/* linktype.h - the LINKTYPE_ values of pcap and pcapng files, written once.
 *
 * Reference: https://www.tcpdump.org/linktypes.html (the numbers are the LINKTYPE_ column; a few
 * DLT_ values of some systems differ and are listed where files carry them).  The capture layer
 * turns what its readers report (a platform DLT_, an ERF record type, a libtrace type) into these
 * values; the dissector's link table (dissect/dissect_link.c) is keyed by them.
 */
#ifndef TN_LINKTYPE_H
#define TN_LINKTYPE_H

enum tn_linktype {
    TN_LINK_NULL = 0,          /* BSD loopback, AF in the capturing host's byte order */
    TN_LINK_ETHERNET = 1,
    TN_LINK_PPP = 9,
    TN_LINK_FDDI = 10,
    TN_LINK_RAW_12 = 12,       /* DLT_RAW on most BSDs and Linux, in files written with DLT values */
    TN_LINK_RAW_14 = 14,       /* DLT_RAW on OpenBSD */
    TN_LINK_PPP_HDLC = 50,
    TN_LINK_ATM_RFC1483 = 100, /* LLC/SNAP over ATM (libpcap's DLT_ATM_RFC1483 is 11) */
    TN_LINK_RAW = 101,         /* raw IPv4 or IPv6, picked by the version nibble */
    TN_LINK_SLIP_BSDOS = 102,  /* DLT_SLIP_BSDOS differs by system */
    TN_LINK_PPP_BSDOS = 103,   /* DLT_PPP_BSDOS differs by system */
    TN_LINK_C_HDLC = 104,      /* Cisco HDLC */
    TN_LINK_IEEE802_11 = 105,
    TN_LINK_LOOP = 108,        /* OpenBSD loopback, AF in network byte order */
    TN_LINK_LINUX_SLL = 113,   /* Linux cooked capture v1 */
    TN_LINK_PFLOG = 117,       /* OpenBSD pflog */
    TN_LINK_RADIOTAP = 127,    /* LINKTYPE_IEEE802_11_RADIOTAP */
    TN_LINK_ARCNET_LINUX = 129, /* ARCNET as Linux hands it over */
    TN_LINK_PPI = 192,
    TN_LINK_IPV4 = 228,
    TN_LINK_IPV6 = 229,
    TN_LINK_DBUS = 231,        /* not dissected; the pcap reader allows it longer records */
    TN_LINK_NFLOG = 239,
    TN_LINK_USBPCAP = 249,     /* not dissected; longer records, as DBUS */
    TN_LINK_LINUX_SLL2 = 276,  /* Linux cooked capture v2 */
    TN_LINK_EBHSCR = 279,      /* not dissected; longer records, as DBUS */
};

#endif
