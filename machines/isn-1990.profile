# The WAN switch's Ethernet bridge modules of the bridging note (B2, B3,
# B5, B6 on netware-1990), refitted now that the machines take time:
# isn's trunk and buffers, a module that sends at once when it holds a
# full block, and the hold that a frame alone waits.
base isn
name isn-1990
release-at 512
hold 7ms
