# The WAN switch's Ethernet bridge modules of the bridging note (B2, B3,
# B5, B6 on netware-1990), refitted now that the machines take time:
# isn's trunk and buffers (published), a module that sends at once when
# it holds a full block, and the hold a frame alone waits.
base isn
name isn-1990
# A block of 512 bytes: a 512-byte read's reply (590 bytes) goes at once,
# a request of 60 waits the hold. Needed by the 1990 figures: B2 adds
# 18.4 ms to a 1-byte read across the bridge but B3 only 10.5 ms to a
# 512-byte read, 5.5 ms of trunk time inside (docs/fidelity-b2b3.md).
release-at 512
# Fit to B3 bridged (the copy's slope: a 522-byte read, 14.9 ms, is the
# local 4.4, trunk and second Ethernet 6, one hold): 5 ms; B2 bridged's
# small requests ask 8.6 ms (two holds). Swept with the shell's cache
# fill in place (B2 bridged | B3 bridged median): 6.2 ms 14.2 | 3.3 %,
# 6.4 ms 12.2 | 3.8 %, 6.5 ms 10.7 | 4.2 %, 6.6 ms 11.1 | 4.7 %, 7 ms
# 11.8 | 6.5 %, 8 ms 15.4 | 10.9 %; B6's bridged traffic a share of
# local is 30 % | 53 % at 6.5 ms (1990: 32 | 54), 29 | 51 at 7.
hold 6500us
