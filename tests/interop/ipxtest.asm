; ipxtest.asm - tiny DOS .COM program for the ipxlab <-> DOSBox interop tests
; (tests/interop/dosbox_test.sh). It talks to the DOS IPX API that DOSBox
; emulates (INT 2Fh AX=7A00h gives the IPX entry point; far calls with the
; function number in BX) and leaves its results in files in the current
; directory, so that the shell script can read them after DOSBox exits.
;
; Build:  nasm -f bin -o IPXTEST.COM ipxtest.asm
;
; Usage (numbers in hex unless noted, addresses in ipxlab notation):
;   IPXTEST A
;       Write own internetwork address (IPX function 09h) to ADDR.TXT as
;       "NNNNNNNN:XXXXXXXXXXXX" and print it.
;   IPXTEST S <node12hex> <sockethex> <text>
;       Send <text> as the payload of one datagram to 00000000:<node>:<socket>
;       (packet type 4), five times about 220 ms apart to cope with loss.
;   IPXTEST R <sockethex> <count> [seconds]
;       Open <socket>, post listen ECBs, then write own address to ADDR.TXT
;       (so ADDR.TXT appearing means "ready"), wait (default 15 s,
;       measured with the BIOS tick counter 0040:006C) for <count> datagrams
;       (decimal). Each one is appended to RECV.TXT and printed as
;       "NNNNNNNN:XXXXXXXXXXXX:SSSS <payload>" (the sender's address first,
;       as `ipxlab listen` prints it; control characters become '.').
;   IPXTEST W <seconds>
;       Idle for <seconds> (decimal) seconds, e.g. to keep a DOSBox IPX
;       server or ping responder alive.
;
; Exit codes: 0 ok, 1 timeout, 2 usage error, 3 no IPX driver,
;             4 socket open failed, 5 send failed, 6 file error.

        cpu     286
        org     100h

; ---------------------------------------------------------------- layout --
; Event Control Block, as defined by the Novell IPX API.
struc ecb
  .link     resd 1              ; link address (driver use)
  .esr      resd 1              ; event service routine (0 = none, we poll)
  .inuse    resb 1              ; nonzero while the driver owns the ECB
  .ccode    resb 1              ; completion code, 0 = success
  .socket   resw 1              ; socket, big-endian (as returned in DX)
  .ipxws    resd 1              ; IPX workspace
  .drvws    resb 12             ; driver workspace
  .immaddr  resb 6              ; immediate address (node of next hop)
  .fragcnt  resw 1              ; number of fragment descriptors
  .frag0    resd 1              ; fragment 0: far pointer ...
  .frag0len resw 1              ;             ... and size (IPX header)
  .frag1    resd 1              ; fragment 1: far pointer ...
  .frag1len resw 1              ;             ... and size (payload)
endstruc

; IPX packet header (all multi-byte fields big-endian).
struc ipxh
  .csum     resw 1
  .len      resw 1
  .tc       resb 1
  .type     resb 1
  .dnet     resb 4
  .dnode    resb 6
  .dsock    resw 1
  .snet     resb 4
  .snode    resb 6
  .ssock    resw 1
endstruc

NRX       equ 4                 ; listen ECBs kept posted in R mode
DATAMAX   equ 1424 - ipxh_size  ; DOSBox's IPX buffer is 1424 bytes
SENDS     equ 5                 ; repetitions in S mode
GAPTICKS  equ 4                 ; ~220 ms between repetitions
TICKS_LO  equ 6Ch               ; BIOS tick counter at 0040:006C

; ------------------------------------------------------------------ main --
start:
        cld
        ; clear .bss (DOS does not zero memory for us)
        mov     di, bss_start
        mov     cx, bss_end - bss_start
        xor     al, al
        rep     stosb

        ; NUL-terminate the command tail at PSP:81h
        mov     bl, [80h]
        xor     bh, bh
        mov     byte [81h+bx], 0
        mov     si, 81h
        call    skip_spaces
        lodsb
        and     al, 0DFh                ; upper case
        mov     [mode], al
        mov     al, [si]                ; mode letter must stand alone
        call    is_sep
        jne     usage

        ; IPX installation check: AL=FFh and ES:DI = entry point
        push    si
        mov     ax, 7A00h
        int     2Fh
        cmp     al, 0FFh
        jne     no_ipx
        mov     [ipx_entry], di
        mov     [ipx_entry+2], es
        push    cs
        pop     es
        ; function 09h: get own internetwork address (4 net + 6 node)
        mov     si, myaddr
        mov     bx, 09h
        call    far [ipx_entry]
        push    cs
        pop     es
        pop     si

        mov     al, [mode]
        cmp     al, 'A'
        je      mode_a
        cmp     al, 'S'
        je      mode_s
        cmp     al, 'R'
        je      mode_r
        cmp     al, 'W'
        je      mode_w
        jmp     usage

; ---------------------------------------------------------------- mode A --
mode_a:
        call    fmt_myaddr              ; "NNNNNNNN:XXXXXXXXXXXX\r\n" in line
        mov     dx, fn_addr
        call    write_file
        jc      file_err
        call    print_line
        xor     al, al
        jmp     exit

; ---------------------------------------------------------------- mode W --
mode_w:
        call    skip_spaces
        call    parse_dec
        jc      usage
        call    secs_to_ticks
        mov     [limit], ax
        call    ticks_init
.wait:  call    relinquish
        call    ticks_poll
        cmp     ax, [limit]
        jb      .wait
        xor     al, al
        jmp     exit

; ---------------------------------------------------------------- mode S --
mode_s:
        call    skip_spaces
        mov     di, txhdr + ipxh.dnode
        call    parse_node
        jc      usage
        call    skip_spaces
        call    parse_hex16
        jc      usage
        xchg    al, ah                  ; to big-endian memory order
        mov     [txhdr + ipxh.dsock], ax
        call    skip_spaces
        ; the rest of the line is the payload; trim trailing blanks
        mov     [txdata], si
        mov     di, si
.end:   cmp     byte [di], 0
        je      .trim
        inc     di
        jmp     .end
.trim:  cmp     di, si
        je      usage                   ; empty payload
        cmp     byte [di-1], ' '
        je      .back
        cmp     byte [di-1], 9
        jne     .len
.back:  dec     di
        jmp     .trim
.len:   sub     di, si
        mov     [txlen], di

        xor     dx, dx                  ; dynamic socket
        call    open_socket
        jc      sock_err

        ; IPX header; the driver fills in source node/socket and length,
        ; we fill in the source network as well (DOSBox 0.74 leaves it)
        mov     word [txhdr + ipxh.csum], 0FFFFh
        mov     ax, [txlen]
        add     ax, ipxh_size
        xchg    al, ah
        mov     [txhdr + ipxh.len], ax
        mov     byte [txhdr + ipxh.type], 4
        mov     si, myaddr
        mov     di, txhdr + ipxh.snet
        mov     cx, 10
        rep     movsb
        mov     ax, [sock]
        mov     [txhdr + ipxh.ssock], ax

        ; send ECB: immediate address = destination node (same network)
        mov     bx, txecb
        mov     [bx + ecb.socket], ax
        mov     si, txhdr + ipxh.dnode
        lea     di, [bx + ecb.immaddr]
        mov     cx, 6
        rep     movsb
        mov     word [bx + ecb.fragcnt], 2
        mov     word [bx + ecb.frag0], txhdr
        mov     [bx + ecb.frag0+2], cs
        mov     word [bx + ecb.frag0len], ipxh_size
        mov     ax, [txdata]
        mov     [bx + ecb.frag1], ax
        mov     [bx + ecb.frag1+2], cs
        mov     ax, [txlen]
        mov     [bx + ecb.frag1len], ax

        mov     byte [count], SENDS
.send:  mov     si, txecb
        mov     bx, 03h                 ; send packet
        call    far [ipx_entry]
        push    cs
        pop     es
        or      al, al
        jnz     .fail
        ; wait (at most ~2 s) for the driver to release the ECB
        call    ticks_init
.busy:  cmp     byte [txecb + ecb.inuse], 0
        je      .sent
        call    relinquish
        call    ticks_poll
        cmp     ax, 37                  ; ~2 s
        jb      .busy
        jmp     .fail
.sent:  cmp     byte [txecb + ecb.ccode], 0
        je      .next
.fail:  inc     word [errcount]
.next:  dec     byte [count]
        jz      .done
        call    ticks_init              ; pause between repetitions
.gap:   call    relinquish
        call    ticks_poll
        cmp     ax, GAPTICKS
        jb      .gap
        jmp     .send
.done:  call    close_socket
        cmp     word [errcount], 0
        jne     send_err
        mov     dx, msg_sent
        call    print_str
        xor     al, al
        jmp     exit

; ---------------------------------------------------------------- mode R --
mode_r:
        call    skip_spaces
        call    parse_hex16
        jc      usage
        xchg    al, ah
        mov     [rxsock], ax
        call    skip_spaces
        call    parse_dec
        jc      usage
        or      ax, ax
        jz      usage
        mov     [want], ax
        call    skip_spaces
        mov     ax, 15                  ; default timeout, seconds
        cmp     byte [si], 0
        je      .deflt
        call    parse_dec
        jc      usage
.deflt: call    secs_to_ticks
        mov     [limit], ax

        mov     dx, fn_recv             ; start with an empty RECV.TXT
        mov     ah, 41h
        int     21h

        mov     dx, [rxsock]
        call    open_socket
        jc      sock_err

        ; post all listen ECBs
        xor     bp, bp
.post:  call    post_rx
        jc      file_err_close
        inc     bp
        cmp     bp, NRX
        jb      .post

        ; now ready: tell the host where we are (ADDR.TXT = "ready" signal)
        call    fmt_myaddr
        mov     dx, fn_addr
        call    write_file
        jc      file_err_close
        mov     dx, msg_listen
        call    print_str
        call    print_line

        call    ticks_init
.poll:  xor     bp, bp
.scan:  mov     ax, bp
        mov     cx, ecb_size
        mul     cx
        mov     bx, rxecbs
        add     bx, ax
        cmp     byte [bx + ecb.inuse], 0
        jne     .skip
        cmp     byte [bx + ecb.ccode], 0
        jne     .repost                 ; cancelled/malformed: ignore
        call    record_rx
        jc      file_err_close
        inc     word [got]
        mov     ax, [got]
        cmp     ax, [want]
        jae     .done
.repost:
        call    post_rx
        jc      file_err_close
.skip:  inc     bp
        cmp     bp, NRX
        jb      .scan
        call    relinquish
        call    ticks_poll
        cmp     ax, [limit]
        jb      .poll
        call    close_socket            ; timeout
        mov     dx, msg_timeout
        call    print_str
        mov     al, 1
        jmp     exit
.done:  call    close_socket            ; also cancels the remaining ECBs
        xor     al, al
        jmp     exit

; post_rx: (re)post listen ECB number BP (header + data buffers of its own).
; CF set if the driver refused it.
post_rx:
        mov     ax, bp
        mov     cx, ecb_size
        mul     cx
        mov     bx, rxecbs
        add     bx, ax
        mov     ax, [rxsock]
        mov     [bx + ecb.socket], ax
        mov     word [bx + ecb.esr], 0
        mov     word [bx + ecb.esr+2], 0
        mov     word [bx + ecb.fragcnt], 2
        mov     ax, bp
        mov     cx, ipxh_size
        mul     cx
        add     ax, rxhdrs
        mov     [bx + ecb.frag0], ax
        mov     [bx + ecb.frag0+2], cs
        mov     word [bx + ecb.frag0len], ipxh_size
        mov     ax, bp
        mov     cx, DATAMAX
        mul     cx
        add     ax, rxdata
        mov     [bx + ecb.frag1], ax
        mov     [bx + ecb.frag1+2], cs
        mov     word [bx + ecb.frag1len], DATAMAX
        mov     si, bx
        mov     bx, 04h                 ; listen for packet
        call    far [ipx_entry]
        push    cs
        pop     es
        or      al, al
        jz      .ok
        stc
        ret
.ok:    clc
        ret

; record_rx: format the packet of listen ECB number BP as a line, append it
; to RECV.TXT and print it. CF set on file error.
record_rx:
        mov     ax, bp
        mov     cx, ipxh_size
        mul     cx
        add     ax, rxhdrs
        mov     si, ax                  ; SI = received header
        mov     di, line
        push    si
        add     si, ipxh.snet
        call    fmt_netnode
        mov     al, ':'
        stosb
        pop     si
        mov     ax, [si + ipxh.ssock]
        push    ax
        call    put_hex_byte            ; AL = high byte (big-endian)
        pop     ax
        mov     al, ah
        call    put_hex_byte
        mov     al, ' '
        stosb
        ; payload length = header length - 30, clamped to the buffer
        mov     cx, [si + ipxh.len]
        xchg    cl, ch
        sub     cx, ipxh_size
        jae     .pos
        xor     cx, cx
.pos:   cmp     cx, 200                 ; keep lines short
        jbe     .lenok
        mov     cx, 200
.lenok: mov     ax, bp
        push    cx
        mov     cx, DATAMAX
        mul     cx
        pop     cx
        add     ax, rxdata
        mov     si, ax
        jcxz    .eol
.copy:  lodsb
        cmp     al, ' '
        jb      .dot
        cmp     al, 7Eh
        jbe     .put
.dot:   mov     al, '.'
.put:   stosb
        loop    .copy
.eol:   mov     ax, 0A0Dh
        stosw
        mov     [linelen], di
        sub     word [linelen], line
        mov     dx, fn_recv
        call    append_file
        jc      .ret
        call    print_line
        clc
.ret:   ret

; ------------------------------------------------------------- exits ------
usage:  mov     dx, msg_usage
        mov     al, 2
        jmp     fail_msg
no_ipx: mov     dx, msg_noipx
        mov     al, 3
        jmp     fail_msg
sock_err:
        mov     dx, msg_sock
        mov     al, 4
        jmp     fail_msg
send_err:
        mov     dx, msg_send
        mov     al, 5
        jmp     fail_msg
file_err_close:
        call    close_socket
file_err:
        mov     dx, msg_file
        mov     al, 6
fail_msg:
        push    ax
        call    print_str
        pop     ax
exit:   mov     ah, 4Ch
        int     21h

; ---------------------------------------------------------- IPX helpers --
; open_socket: DX = socket (big-endian order as in DX, 0 = dynamic).
; Stores the socket in [sock]; CF set on failure. An already open socket
; (AL=FFh) is accepted.
open_socket:
        mov     al, 0                   ; short-lived
        mov     bx, 00h
        call    far [ipx_entry]
        push    cs
        pop     es
        cmp     al, 0
        je      .ok
        cmp     al, 0FFh
        je      .ok
        stc
        ret
.ok:    mov     [sock], dx
        mov     byte [sockopen], 1
        clc
        ret

; close_socket: close [sock] if we opened it; the driver cancels its ECBs,
; so it can never write into our memory after we exit.
close_socket:
        cmp     byte [sockopen], 0
        je      .ret
        mov     dx, [sock]
        mov     bx, 01h
        call    far [ipx_entry]
        push    cs
        pop     es
        mov     byte [sockopen], 0
.ret:   ret

relinquish:
        mov     bx, 0Ah
        call    far [ipx_entry]
        push    cs
        pop     es
        ret

; --------------------------------------------------------- tick helpers --
; The BIOS tick counter runs at ~18.2 Hz. We count its changes rather than
; subtracting, so the midnight reset cannot break the timeout.
ticks_init:
        call    read_tick
        mov     [lasttick], ax
        mov     word [elapsed], 0
        ret

; ticks_poll: AX = ticks elapsed since ticks_init
ticks_poll:
        call    read_tick
        mov     dx, ax
        sub     ax, [lasttick]
        jae     .add
        mov     ax, 1                   ; counter was reset at midnight
.add:   add     [elapsed], ax
        mov     [lasttick], dx
        mov     ax, [elapsed]
        ret

read_tick:
        push    es
        mov     ax, 40h
        mov     es, ax
        mov     ax, [es:TICKS_LO]
        pop     es
        ret

; secs_to_ticks: AX = seconds -> AX = ticks (x 18.2), saturating
secs_to_ticks:
        mov     cx, 182
        mul     cx
        mov     cx, 10
        cmp     dx, cx
        jae     .sat
        div     cx
        ret
.sat:   mov     ax, 0FFFFh
        ret

; -------------------------------------------------------- parse helpers --
skip_spaces:
        cmp     byte [si], ' '
        je      .skip
        cmp     byte [si], 9
        jne     .ret
.skip:  inc     si
        jmp     skip_spaces
.ret:   ret

; is_sep: ZF set if AL is a token separator (NUL, blank, tab)
is_sep: cmp     al, 0
        je      .ret
        cmp     al, ' '
        je      .ret
        cmp     al, 9
.ret:   ret

; hex_digit: AL = character -> AL = value; CF set if not a hex digit
hex_digit:
        cmp     al, '0'
        jb      .bad
        cmp     al, '9'
        jbe     .num
        and     al, 0DFh
        cmp     al, 'A'
        jb      .bad
        cmp     al, 'F'
        ja      .bad
        sub     al, 'A' - 10
        clc
        ret
.num:   sub     al, '0'
        clc
        ret
.bad:   stc
        ret

; parse_hex16: [SI] = 1-4 hex digits, optional 0x prefix -> AX; CF on error
parse_hex16:
        cmp     byte [si], '0'
        jne     .go
        mov     al, [si+1]
        and     al, 0DFh
        cmp     al, 'X'
        jne     .go
        add     si, 2
.go:    xor     dx, dx
        xor     cx, cx
.dig:   mov     al, [si]
        call    hex_digit
        jc      .end
        shl     dx, 4
        or      dl, al
        inc     si
        inc     cx
        jmp     .dig
.end:   cmp     cx, 1
        jb      .bad
        cmp     cx, 4
        ja      .bad
        mov     al, [si]
        call    is_sep
        jne     .bad
        mov     ax, dx
        clc
        ret
.bad:   stc
        ret

; parse_node: [SI] = 12 hex digits -> 6 bytes at DI; CF on error
parse_node:
        mov     cx, 6
.byte:  lodsb
        call    hex_digit
        jc      .bad
        mov     ah, al
        shl     ah, 4
        lodsb
        call    hex_digit
        jc      .bad
        or      al, ah
        stosb
        loop    .byte
        mov     al, [si]
        call    is_sep
        jne     .bad
        clc
        ret
.bad:   stc
        ret

; parse_dec: [SI] = decimal number (max 65535) -> AX; CF on error
parse_dec:
        xor     ax, ax
        xor     cx, cx                  ; digit count
.dig:   mov     bl, [si]
        sub     bl, '0'
        cmp     bl, 9
        ja      .end
        mov     dx, 10
        mul     dx
        jc      .bad
        xor     bh, bh
        add     ax, bx
        jc      .bad
        inc     si
        inc     cx
        jmp     .dig
.end:   jcxz    .bad
        push    ax
        mov     al, [si]
        call    is_sep
        pop     ax
        jne     .bad
        clc
        ret
.bad:   stc
        ret

; ------------------------------------------------------- format helpers --
; put_hex_byte: AL -> two upper-case hex digits at [DI]
put_hex_byte:
        push    ax
        shr     al, 4
        call    .nib
        pop     ax
        and     al, 0Fh
.nib:   add     al, '0'
        cmp     al, '9'
        jbe     .st
        add     al, 'A' - '9' - 1
.st:    stosb
        ret

; fmt_netnode: 10 bytes at SI (net, node) -> "NNNNNNNN:XXXXXXXXXXXX" at DI
fmt_netnode:
        mov     cx, 4
.net:   lodsb
        call    put_hex_byte
        loop    .net
        mov     al, ':'
        stosb
        mov     cx, 6
.node:  lodsb
        call    put_hex_byte
        loop    .node
        ret

; fmt_myaddr: own address plus CR LF into line/linelen
fmt_myaddr:
        mov     si, myaddr
        mov     di, line
        call    fmt_netnode
        mov     ax, 0A0Dh
        stosw
        sub     di, line
        mov     [linelen], di
        ret

; ---------------------------------------------------------- DOS helpers --
print_str:                              ; DX = '$'-terminated string
        mov     ah, 09h
        int     21h
        ret

print_line:                             ; line/linelen to stdout
        mov     bx, 1
        mov     cx, [linelen]
        mov     dx, line
        mov     ah, 40h
        int     21h
        ret

; write_file: create/truncate file DX and write line/linelen; CF on error
write_file:
        xor     cx, cx
        mov     ah, 3Ch
        int     21h
        jnc     write_close
        ret

; append_file: append line/linelen to file DX (created if missing).
; The file is closed after every line so the host sees it at once.
append_file:
        push    dx
        mov     ax, 3D02h
        int     21h
        pop     dx
        jnc     .opened
        xor     cx, cx
        mov     ah, 3Ch
        int     21h
        jc      .ret
.opened:
        mov     bx, ax
        xor     cx, cx
        xor     dx, dx
        mov     ax, 4202h               ; seek to end
        int     21h
        mov     ax, bx
        jmp     write_close
.ret:   ret

; write_close: AX = handle; write line/linelen, close; CF on error
write_close:
        mov     bx, ax
        mov     cx, [linelen]
        mov     dx, line
        mov     ah, 40h
        int     21h
        jc      .close
        cmp     ax, cx
        jne     .short
        mov     ah, 3Eh
        int     21h
        ret
.short: stc
.close: pushf
        mov     ah, 3Eh
        int     21h
        popf
.ret:   ret

; ------------------------------------------------------------------ data --
fn_addr     db  'ADDR.TXT', 0
fn_recv     db  'RECV.TXT', 0
msg_usage   db  'usage: IPXTEST A | S node sock text | R sock count [sec]'
            db  ' | W sec', 13, 10, '$'
msg_noipx   db  'IPXTEST: no IPX driver', 13, 10, '$'
msg_sock    db  'IPXTEST: cannot open socket', 13, 10, '$'
msg_send    db  'IPXTEST: send failed', 13, 10, '$'
msg_file    db  'IPXTEST: file error', 13, 10, '$'
msg_timeout db  'IPXTEST: timeout', 13, 10, '$'
msg_sent    db  'IPXTEST: sent', 13, 10, '$'
msg_listen  db  'listening on $'

; ------------------------------------------------------------------- bss --
section .bss
bss_start:
ipx_entry   resd 1
mode        resb 1
sockopen    resb 1
sock        resw 1
rxsock      resw 1
myaddr      resb 10
count       resb 1
errcount    resw 1
want        resw 1
got         resw 1
limit       resw 1
lasttick    resw 1
elapsed     resw 1
txdata      resw 1
txlen       resw 1
linelen     resw 1
line        resb 300
txecb       resb ecb_size
txhdr       resb ipxh_size
rxecbs      resb ecb_size * NRX
rxhdrs      resb ipxh_size * NRX
rxdata      resb DATAMAX * NRX
bss_end:
