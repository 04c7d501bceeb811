#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Linux Soft-RoCE (rxe) in a QEMU guest as a test bench (docs/rxe-vm.md).
#
#   scripts/rxe-vm.sh [--quick | --all | --interop | --probe] [--seed N] [-o DIR] [--accel kvm|tcg]
#                     [--only REGEX] [--suite bookworm|trixie|sid]
#   scripts/rxe-vm.sh --fuzz [--seed N] [--episodes N] [--time-limit S] [-o DIR] [--suite ...]
#
# Builds a guest from the Debian packages of one suite only (apt-get download,
# dpkg-deb -x; cached in $RXE_VM_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/ibwire-rxe-vm,
# each suite but bookworm in a directory of its own under it).  --suite
# bookworm (the default, Debian 12, Linux 6.1) uses the host's apt sources;
# trixie (Debian 13, 6.12) and sid (unstable, 7.x) use a private sources
# list and package lists in the cache, and leave the host's apt alone.
# with the ibwire of build/plain in it; boots it with KVM when KVM boots
# (boot timeout), else TCG; always -nic none.  In the guest two rxe devices
# over a veth pair run the workload matrix (scripts/rxe-vm/matrix.py), each
# captured on both veth ends by tcpdump and checked live by
# `ibwire check -i veth_a`.  The captures and the tools' logs come out on a
# raw disk image (tar); DIR/results.md is the table (scripts/rxe-vm/results.py).
# --quick without --only then runs the interop set (scripts/rxe-vm/peer.sh,
# as --interop does alone), its table under the matrix's.  --probe runs
# `ibwire probe`'s suite against one rxe device (rxe-vm/probe.sh); --fuzz
# its differential fuzzer (rxe-vm/fuzz.sh: --episodes, default 1000000,
# --time-limit, default 1200 s, of fuzzing; DIR/runN/fuzz/ has the
# minimized scripts and their frames, one runN per guest (a guest whose
# kernel crashes is followed by another), DIR/table.md the table of
# divergences, rxe-vm/fuzz_table.py).
# Exit 0: every workload ran and every verdict is as expected; 1: not; 2: the
# bench could not run; 77: QEMU cannot boot here (skip).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root_dir=$(dirname "$here")
mode=quick seed=1 out="" accel="${RXE_VM_ACCEL:-auto}" only="" suite=bookworm
episodes=1000000 time_limit=1200
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) mode=quick ;;
        --all) mode=all ;;
        --interop) mode=interop ;; # ibwire peer against rxe (rxe-vm/peer.sh)
        --probe|probe) mode=probe ;; # ibwire probe against rxe (rxe-vm/probe.sh)
        --fuzz|fuzz) mode=fuzz ;; # ibwire probe --fuzz against rxe (rxe-vm/fuzz.sh)
        --episodes) episodes=$2; shift ;;
        --time-limit) time_limit=$2; shift ;;
        --seed) seed=$2; shift ;;
        -o) out=$2; shift ;;
        --accel) accel=$2; shift ;;
        --only) only=$2; shift ;;
        --suite) suite=$2; shift ;;
        -h|--help) sed -n '3,30p' "$0"; exit 0 ;;
        *) echo "rxe-vm.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
case "$seed" in ''|*[!0-9]*) echo "rxe-vm.sh: --seed takes a number" >&2; exit 2 ;; esac
case "$episodes$time_limit" in *[!0-9]*) echo "rxe-vm.sh: --episodes and --time-limit take numbers" >&2; exit 2 ;; esac
case "$suite" in bookworm|trixie|sid) ;; *) echo "rxe-vm.sh: --suite is bookworm, trixie or sid" >&2; exit 2 ;; esac
if [ -z "$out" ]; then
    out="$root_dir/build/rxe-vm/$mode-seed$seed"
    [ "$suite" = bookworm ] || out="$root_dir/build/rxe-vm/$suite/$mode-seed$seed"
fi
ibwire="${IBWIRE:-$root_dir/build/plain/conformance/tool/ibwire}"
cache="${RXE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ibwire-rxe-vm}"
[ "$suite" = bookworm ] || cache="$cache/$suite"
t_start=$(date +%s)
say() { echo "rxe-vm: $*" >&2; }

# --- host packages ----------------------------------------------------------
need=""
for p in qemu-system-x86 cpio kmod python3; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    say "installing$need"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >/dev/null \
        || { say "cannot install$need: skipped"; exit 77; }
fi
if [ ! -x "$ibwire" ]; then
    say "no ibwire at $ibwire (meson compile -C build/plain first, or set IBWIRE)"
    exit 2
fi

# --- guest packages (cached) ------------------------------------------------
mkdir -p "$cache"
# one run at a time fills the cache; each run has its own work directory
exec 9>"$cache/.lock"
flock 9
apt_opts=""
if [ "$suite" != bookworm ]; then
    # a private apt: this suite's sources, lists and cache under $cache/apt;
    # the host's configuration is not read for sources and not changed
    a="$cache/apt"
    mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
    key_ring=/usr/share/keyrings/debian-archive-keyring.gpg
    printf 'deb [signed-by=%s] http://deb.debian.org/debian %s main\ndeb-src [signed-by=%s] http://deb.debian.org/debian %s main\n' \
        "$key_ring" "$suite" "$key_ring" "$suite" >"$a/sources.list"
    apt_opts="-o Dir::Etc::sourcelist=$a/sources.list -o Dir::Etc::sourceparts=/dev/null
              -o Dir::State::Lists=$a/lists -o Dir::Cache=$a/cache -o APT::Get::List-Cleanup=0"
    # the lists once a day at most (sid moves)
    if [ -z "$(find "$a/lists" -maxdepth 1 -name '*InRelease' -mtime -1 2>/dev/null)" ]; then
        say "apt-get update for $suite (private lists in $a)"
        # shellcheck disable=SC2086
        apt-get $apt_opts update -qq >"$a/update.log" 2>&1 || { cat "$a/update.log" >&2; say "apt-get update ($suite) failed"; exit 77; }
    fi
fi
# shellcheck disable=SC2086
kpkg=$(apt-cache $apt_opts depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)/\1/p' | head -1)
[ -n "$kpkg" ] || { say "cannot resolve linux-image-amd64 ($suite; apt-get update?)"; exit 77; }
# from 7.x the image package is small: the kernel is in linux-binary-*, the
# modules (.ko.xz) in linux-modules-*, both Depends of the image package
# shellcheck disable=SC2086
kparts=$(apt-cache $apt_opts depends "$kpkg" 2>/dev/null | sed -n 's/^ *Depends: \(linux-\(binary\|modules\)-[0-9].*\)/\1/p' | sort -u | tr '\n' ' ')
# the t64 transition (Debian 13) renamed two of the libraries
# (and ip needs zlib1g there, which no declared Depends starting lib names)
case "$suite" in
    bookworm) t64="" more="" ;;
    *) t64=t64 more=zlib1g ;;
esac
pkgs="$kpkg $kparts busybox-static rdma-core ibverbs-providers libibverbs1 librdmacm1$t64 libibumad3
      ibverbs-utils rdmacm-utils perftest iproute2 tcpdump libpcap0.8$t64 libc6 libgcc-s1
      libstdc++6 ethtool $more"
debs="$cache/debs"
rootfs="$cache/rootfs"
mkdir -p "$debs"
fetch() {   # PKG...: apt-get download the ones not in the cache yet
    for p in "$@"; do
        ls "$debs/${p}_"*.deb >/dev/null 2>&1 && continue
        # shellcheck disable=SC2086
        (cd "$debs" && apt-get $apt_opts download "$p" >/dev/null 2>"$debs/.err") \
            || { cat "$debs/.err" >&2; say "apt-get download $p ($suite) failed"; return 1; }
    done
}
fetch $pkgs || exit 77
key=$(for p in $pkgs; do ls "$debs/${p}_"*.deb; done | md5sum | cut -c1-12)
if [ ! -f "$rootfs/.done-$key" ]; then
    say "unpacking guest packages into $rootfs"
    rm -rf "$rootfs" "$cache/kernel"
    mkdir -p "$rootfs" "$cache/kernel"
    for p in $pkgs; do
        f=$(ls "$debs/${p}_"*.deb | head -1)
        case "$p" in
            linux-image-*|linux-binary-*|linux-modules-*) dpkg-deb -x "$f" "$cache/kernel" ;;
            *) dpkg-deb -x "$f" "$rootfs" ;;
        esac
    done
    # the shared library closure, package by package (the host's dpkg
    # database names the package owning each soname: also Debian 12)
    extra=""
    for round in 1 2 3 4 5 6 7 8; do
        missing=$(find "$rootfs" -path '*/gconv' -prune -o -type f \( -perm -u+x -o -name '*.so*' \) -print0 \
            | xargs -0 readelf -d 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u \
            | while read -r so; do
                [ -e "$rootfs/lib/x86_64-linux-gnu/$so" ] || [ -e "$rootfs/usr/lib/x86_64-linux-gnu/$so" ] \
                    || [ -e "$rootfs/lib64/$so" ] || echo "$so"
              done)
        [ -z "$missing" ] && break
        new="" unknown=""
        for so in $missing; do
            # the host's dpkg names packages of its own suite (bookworm)
            [ "$suite" = bookworm ] || { unknown="$unknown $so"; continue; }
            p=$(dpkg -S "*/x86_64-linux-gnu/$so" 2>/dev/null | head -1 | cut -d: -f1)
            [ -n "$p" ] || { unknown="$unknown $so"; continue; }
            case " $extra $new " in *" $p "*) ;; *) new="$new $p" ;; esac
        done
        if [ -n "$unknown" ]; then
            # the host's dpkg does not know these sonames: take the library
            # packages the guest's packages declare (Depends) not yet in it
            for f in "$debs"/*.deb; do dpkg-deb -f "$f" Depends; done | tr ',|' '\n\n' \
                | sed 's/(.*//; s/:any//; s/ //g' | grep -E '^(lib|zlib)' | sort -u >"$cache/depends"
            for p in $(cat "$cache/depends"); do
                case " $pkgs $extra $new " in *" $p "*) ;; *) new="$new $p" ;; esac
            done
            [ $round -gt 1 ] || say "sonames the host does not know:$unknown; adding declared dependencies:$new"
        fi
        [ -n "$new" ] || break
        # a declared dependency that is virtual or gone is not fatal: the
        # next round finds whether its soname is still missing
        fetch_ok=""
        for p in $new; do fetch "$p" && fetch_ok="$fetch_ok $p"; done
        new=$fetch_ok
        for p in $new; do dpkg-deb -x "$(ls "$debs/${p}_"*.deb | head -1)" "$rootfs"; done
        extra="$extra$new"
    done
    rm -rf "$rootfs/usr/lib/x86_64-linux-gnu/gconv" "$rootfs/usr/share/doc" "$rootfs/usr/share/man" "$rootfs/usr/share/locale" \
           "$rootfs/usr/share/info" "$rootfs/usr/share/lintian"
    touch "$rootfs/.done-$key"
fi
# merged /usr (Debian 13 on): the packages put their files under usr/ only,
# and base-files, which would make /bin, /sbin, /lib and /lib64 links into
# it, is not in the guest; make the links (the init's #!/bin/busybox, the
# programs' /lib64/ld-linux-x86-64.so.2)
if [ -d "$rootfs/usr/bin" ] && [ ! -e "$rootfs/bin/busybox" ]; then
    for d in bin sbin lib lib64; do
        [ -L "$rootfs/$d" ] && continue
        [ -d "$rootfs/usr/$d" ] || continue
        if [ -d "$rootfs/$d" ]; then cp -a "$rootfs/$d/." "$rootfs/usr/$d/" && rm -rf "${rootfs:?}/$d"; fi
        ln -s "usr/$d" "$rootfs/$d"
    done
fi
# merged /usr (Debian 13 on): the modules under usr/lib/modules
if [ ! -d "$cache/kernel/lib/modules" ] && [ -d "$cache/kernel/usr/lib/modules" ]; then
    mkdir -p "$cache/kernel/lib" && ln -s ../usr/lib/modules "$cache/kernel/lib/modules"
fi
kver=$(ls "$cache/kernel/lib/modules" | head -1)
vmlinuz=$(ls "$cache/kernel/boot/vmlinuz-$kver" "$cache/kernel/usr/lib/linux/vmlinuz-$kver" \
          "$cache/kernel/usr/lib/linux-image-$kver/vmlinuz" 2>/dev/null | head -1)
[ -n "$vmlinuz" ] || vmlinuz=$(find "$cache/kernel" -name 'vmlinuz*' -type f | head -1)
[ -n "$vmlinuz" ] || { say "no vmlinuz in the $suite kernel packages ($kpkg $kparts)"; exit 2; }
[ -f "$cache/kernel/lib/modules/$kver/modules.dep" ] || depmod -b "$cache/kernel" "$kver"

flock -u 9

# --- the image: rootfs + modules + ibwire + scripts + workloads -------------
work=$(mktemp -d "${TMPDIR:-/tmp}/ibwire-rxe-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
# a directory /lib in the overlay would replace the rootfs's link /lib -> usr/lib
moddir=/lib/modules
[ -L "$rootfs/lib" ] && moddir=/usr/lib/modules
mkdir -p "$work/overlay/rxe" "$work/overlay$moddir/$kver" "$work/overlay/usr/local/bin"
for m in crc32_generic virtio_pci virtio_blk veth sch_netem rdma_rxe ib_uverbs rdma_ucm ib_umad; do
    modprobe -d "$cache/kernel" -S "$kver" --show-depends "$m" | sed -n 's/^insmod \([^ ]*\).*/\1/p'
done | awk '!seen[$0]++' >"$work/modules.host"
while read -r ko; do
    rel=${ko#"$cache/kernel"}
    rel=$moddir/${rel#*/lib/modules/}
    mkdir -p "$work/overlay$(dirname "$rel")"
    # compressed modules (.ko.xz from 6.x Debian kernels, .ko.zst elsewhere)
    # go in plain: busybox insmod does not decompress
    case "$ko" in
        *.ko.xz) rel=${rel%.xz}; xz -dc "$ko" >"$work/overlay$rel" ;;
        *.ko.zst) rel=${rel%.zst}; zstd -qdc "$ko" >"$work/overlay$rel" ;;
        *) cp "$ko" "$work/overlay$rel" ;;
    esac
    echo "$rel"
done <"$work/modules.host" >"$work/overlay/rxe/modules.order"
cp "$ibwire" "$work/overlay/usr/local/bin/ibwire"
for so in $(readelf -d "$ibwire" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [ -e "$rootfs/lib/x86_64-linux-gnu/$so" ] || [ -e "$rootfs/usr/lib/x86_64-linux-gnu/$so" ] && continue
    # a library ibwire needs that no guest package brought: the host's copy
    # (same Debian 12), with the libraries it needs in turn as ldd resolves them
    for lib in $(ldd "$ibwire" | awk '/=> \//{print $3}'); do
        b=$(basename "$lib")
        [ -e "$rootfs/lib/x86_64-linux-gnu/$b" ] || [ -e "$rootfs/usr/lib/x86_64-linux-gnu/$b" ] \
            || { mkdir -p "$work/overlay/usr/local/lib"; cp -L "$lib" "$work/overlay/usr/local/lib/"; }
    done
done
cp "$here/rxe-vm/init" "$work/overlay/init"
cp "$here/rxe-vm/run-workloads.sh" "$work/overlay/rxe/run-workloads.sh"
chmod +x "$work/overlay/init" "$work/overlay/rxe/run-workloads.sh"
if [ "$mode" = interop ]; then cp "$here/rxe-vm/peer.sh" "$work/overlay/rxe/run-workloads.sh"; printf 'interop|-|-|1500|60|-|-\n%.0s' 1 2 3 >"$work/overlay/rxe/workloads" # budget: 3 x 150 s
    cp "$(dirname "$ibwire")/../probe/ibwire-agent" "$work/overlay/usr/local/bin/" 2>/dev/null || say "no ibwire-agent (libibverbs-dev, librdmacm-dev)"
elif [ "$mode" = probe ]; then cp "$here/rxe-vm/probe.sh" "$work/overlay/rxe/run-workloads.sh"; cp "$here/rxe-vm/one-device.sh" "$work/overlay/rxe/"; printf 'probe|-|-|1500|600|-|-\n%.0s' 1 2 3 4 >"$work/overlay/rxe/workloads" # budget: 4 x 150 s
    printf '%s\n' "$only" >"$work/overlay/rxe/probe-only"
    cp "$(dirname "$ibwire")/../probe/ibwire-agent" "$work/overlay/usr/local/bin/" 2>/dev/null || { say "no ibwire-agent (libibverbs-dev, librdmacm-dev)"; exit 2; }
elif [ "$mode" = fuzz ]; then cp "$here/rxe-vm/fuzz.sh" "$work/overlay/rxe/run-workloads.sh"; cp "$here/rxe-vm/one-device.sh" "$work/overlay/rxe/"
    # one line: the budget below is the fuzzing time plus the minimizations'
    printf 'fuzz|-|-|1500|%s|-|-\n' "$time_limit" >"$work/overlay/rxe/workloads"
    cp "$(dirname "$ibwire")/../probe/ibwire-agent" "$work/overlay/usr/local/bin/" 2>/dev/null || { say "no ibwire-agent (libibverbs-dev, librdmacm-dev)"; exit 2; }
else python3 "$here/rxe-vm/matrix.py" --mode "$mode" --seed "$seed" ${only:+--only "$only"} >"$work/overlay/rxe/workloads"; fi
nw=$(grep -c '^[^#]' "$work/overlay/rxe/workloads" || true)
# --quick (without --only) also runs the interop set after the matrix:
# rxe-vm/peer.sh, `ibwire peer` against rxe (about 4 min under TCG)
interop_after=0
if [ "$mode" = quick ] && [ -z "$only" ]; then
    interop_after=1
    mv "$work/overlay/rxe/run-workloads.sh" "$work/overlay/rxe/matrix.sh"
    cp "$here/rxe-vm/peer.sh" "$work/overlay/rxe/peer.sh"
    printf '#!/bin/busybox sh\n/rxe/matrix.sh\n/rxe/peer.sh\n' >"$work/overlay/rxe/run-workloads.sh"
    chmod +x "$work/overlay/rxe/run-workloads.sh" "$work/overlay/rxe/peer.sh"
    cp "$(dirname "$ibwire")/../probe/ibwire-agent" "$work/overlay/usr/local/bin/" 2>/dev/null || say "no ibwire-agent (libibverbs-dev, librdmacm-dev)"
fi
say "$nw workloads ($mode, seed $seed), $suite, kernel $kver"
echo "$suite $kver" >"$work/overlay/rxe/suite"
img="$work/image.cpio.gz"
{
    (cd "$rootfs" && find . ! -name '.done-*' | cpio -o -H newc --quiet)
    (cd "$work/overlay" && find . | cpio -o -H newc --quiet)
} | gzip -1 >"$img"
say "image $(du -h "$img" | cut -f1), built in $(( $(date +%s) - t_start )) s"

# --- boot -------------------------------------------------------------------
rm -rf "$out" && mkdir -p "$out"
echo "$suite $kver" >"$out/kernel"
disk="$work/out.img"
truncate -s 2G "$disk"
append=""
run_vm() {   # ACCEL BOOT_TIMEOUT RUN_TIMEOUT: 0 ran, 3 did not boot, 4 timed out
    acc=$1 bt=$2 rt=$3
    case "$acc" in
        kvm) a="-accel kvm -cpu host" ;;
        *) a="-accel tcg,thread=multi" ;;
    esac
    : >"$out/console.log"
    # shellcheck disable=SC2086
    qemu-system-x86_64 $a -m 2048 -smp 2 -kernel "$vmlinuz" -initrd "$img" \
        -append "console=ttyS0 quiet panic=-1 no_timer_check $append" -display none -monitor none \
        -serial "file:$out/console.log" -no-reboot -nic none \
        -drive "file=$disk,format=raw,if=virtio" >"$out/qemu.log" 2>&1 &
    qpid=$!
    n=0
    while ! grep -q "rxe-vm: init reached" "$out/console.log" 2>/dev/null; do
        if ! kill -0 $qpid 2>/dev/null || [ $n -ge $((bt * 10)) ]; then
            kill $qpid 2>/dev/null; wait $qpid 2>/dev/null || true
            return 3
        fi
        sleep 0.1; n=$((n + 1))
    done
    n=0
    while kill -0 $qpid 2>/dev/null; do
        if [ $n -ge $((rt * 10)) ]; then
            kill $qpid 2>/dev/null; wait $qpid 2>/dev/null || true
            return 4
        fi
        sleep 0.1; n=$((n + 1))
    done
    wait $qpid 2>/dev/null || true
    return 0
}
budget=$((nw * 150 + 120 + interop_after * 600))
# (--fuzz: the fuzzer stops at its time limit, minimizing included
# (fuzz.c); boot, the first QPs and the last verification runs take the rest)
boot() {   # one guest: the accelerator KVM when it boots, else TCG; its archives into $out
    rc=3
    if [ "$accel" != tcg ] && [ -w /dev/kvm ]; then
        rc=0; run_vm kvm 10 "$budget" || rc=$?
        [ $rc -eq 3 ] && say "KVM did not boot the guest in 10 s (see $out/qemu.log): TCG"
        [ $rc -eq 0 ] && echo kvm >"$out/accel"
    fi
    if [ $rc -eq 3 ] && [ "$accel" != kvm ]; then
        echo tcg >"$out/accel"
        rc=0; run_vm tcg 120 "$budget" || rc=$?
    fi
    case $rc in
        3) say "QEMU could not boot the guest (see $out/console.log, $out/qemu.log): skipped"; exit 77 ;;
        4) say "the guest ran past its $budget s budget: stopped" ;;
    esac
    # one tar archive per workload, one after the other, then the guest's log
    # (the first GiB: --fuzz's snapshots are in the second, rxe-vm/fuzz.sh)
    (cd "$out" && head -c 1G "$disk" | tar xf - --ignore-zeros 2>/dev/null) || say "no results on the disk image"
}
if [ "$mode" != fuzz ]; then
    boot
    # --probe: a test that crashed the guest kernel (rxe-vm/probe.sh runs
    # such tests last, after a copy of /out at the second GiB)
    if [ "$mode" = probe ] && [ ! -f "$out/probe/rc" ]; then
        (cd "$out" && dd if="$disk" bs=512 skip=2097152 2>/dev/null | tar xf - 2>/dev/null) || true
        t=$(sed -n 's/.*rxe-vm: probe \([a-z0-9-]*\) (a test that crashed a kernel).*/\1/p' "$out/console.log" | tail -1)
        if [ -n "$t" ] && grep -qE "BUG:|Oops|Kernel panic" "$out/console.log"; then
            echo "FAIL  $t  the guest kernel crashed: $(grep -m1 -E 'BUG:' "$out/console.log" | sed 's/^\[[ 0-9.]*\] //'); $(grep -m1 -E 'RIP: 0010' "$out/console.log" | sed 's/^\[[ 0-9.]*\] //')" >>"$out/probe/table.txt"
            echo 1 >"$out/probe/rc"
        fi
    fi
else
    # --fuzz: a guest whose kernel crashes (an episode brought rxe down) is
    # a finding; the run goes on in a new guest from the next episode, for
    # the time left.  Each guest's results in $out/runN: fuzz/ (from init's
    # last archive, else from the guest's last snapshot, rxe-vm/fuzz.sh),
    # console.log, and crash.txt: the episode and the kernel's report.
    fuzz_out=$out first=0 left=$time_limit nrun=0
    while :; do
        out=$fuzz_out/run$nrun
        mkdir -p "$out"
        rm -f "$disk" && truncate -s 2G "$disk"
        # printk.devkmsg=on: the episode lines are not rate-limited away
        append="printk.devkmsg=on ibwfuzz=$seed,$episodes,$left,$first"
        budget=$((left + 600))
        t_run=$(date +%s)
        boot
        if [ ! -f "$out/fuzz/rc" ]; then
            (cd "$out" && dd if="$disk" bs=512 skip=2097152 2>/dev/null | tar xf - 2>/dev/null) || true
        fi
        # the kernel's warnings, each after the episode logged before it
        awk '{ gsub(/\r/, "") } /ibwire probe --fuzz: episode/ { ep = $NF }
             /WARNING: / { sub(/^\[[ 0-9.]*\] /, ""); print ep ": " $0 }' "$out/console.log" >"$out/warnings.txt"
        crashed=$(sed -n '/BUG:\|Oops:\|Kernel panic/q; s/.*ibwire probe --fuzz: episode fz-[0-9]*-\([0-9]*\).*/\1/p' "$out/console.log" | tail -1)
        if [ ! -f "$out/fuzz/rc" ] && grep -qE "BUG:|Oops|Kernel panic" "$out/console.log" && [ -n "$crashed" ]; then
            {
                echo "episode fz-$seed-$crashed: the guest kernel crashed"
                sed -n '/BUG:\|Oops:/,$p' "$out/console.log" \
                    | grep -E "BUG:|Oops:|RIP: 0010|Kernel panic|^\[ *[0-9.]*\]  [a-z_0-9]+\+0x" | head -20
            } >"$out/crash.txt"
            say "run $nrun: the guest kernel crashed in episode fz-$seed-$crashed ($out/crash.txt)"
            first=$((crashed + 1))
            used=$(( $(date +%s) - t_run - 60 ))
            [ $used -gt 60 ] || used=60
            left=$((left - used)) nrun=$((nrun + 1))
            [ "$left" -gt 120 ] && continue
        fi
        break
    done
    out=$fuzz_out
fi
rm -f "$disk"
say "guest done in $(( $(date +%s) - t_start )) s ($(cat "$out/accel" "$out/run0/accel" 2>/dev/null))"
[ "$mode" = probe ] && { echo "probe against rxe: Debian $suite, Linux $kver (guest: $(sed -n 's/^kernel //p' "$out/guest.log" 2>/dev/null | head -1))"
    cat "$out/probe/table.txt" 2>/dev/null || say "no probe table (see $out/guest.log)"; rc=$(cat "$out/probe/rc" 2>/dev/null || echo 2); [ "$rc" -le 1 ] && rc=0; exit "$rc"; }
[ "$mode" = fuzz ] && { echo "ibwire probe --fuzz against rxe: Debian $suite, Linux $kver"
    ls "$out"/run*/fuzz/fuzz.txt >/dev/null 2>&1 || { say "no fuzz results (see $out/run0/console.log)"; exit 2; }
    python3 "$here/rxe-vm/fuzz_table.py" --ibwire "$ibwire" "$out"/run* | tee "$out/table.md"
    exit 0; }
[ "$mode" = interop ] && { echo "interop against rxe: Debian $suite, Linux $kver"; cat "$out/peer/summary.txt"; ! grep -qv ' rxe=0 engine=0 check=0 ' "$out/peer/summary.txt"; exit $?; }
rrc=0
python3 "$here/rxe-vm/results.py" --ibwire "$ibwire" --seed "$seed" --mode "$mode" "$out" || rrc=$?
if [ "$interop_after" = 1 ]; then
    # the interop runs' table under the matrix's; any run not clean fails
    sum="$out/peer/summary.txt"
    {
        echo; echo "## interop: ibwire peer against rxe (rxe-vm/peer.sh)"; echo
        echo "| run | rxe tool rc | engine rc | ibwire check veth_a |"; echo "|---|---|---|---|"
        [ -s "$sum" ] && sed 's/^\([^ ]*\) rxe=\([^ ]*\) engine=\([^ ]*\) check=[^ ]* *\(.*\)$/| \1 | \2 | \3 | \4 |/' "$sum"
        n=$(grep -c . "$sum" 2>/dev/null || true); bad=$(grep -cv ' rxe=0 engine=0 check=0 ' "$sum" 2>/dev/null || true)
        echo; echo "${n:-0} interop runs, ${bad:-0} not clean"
    } | tee -a "$out/results.md"
    { [ -s "$sum" ] && ! grep -qv ' rxe=0 engine=0 check=0 ' "$sum"; } || rrc=1
fi
say "total $(( $(date +%s) - t_start )) s"
exit $rrc
