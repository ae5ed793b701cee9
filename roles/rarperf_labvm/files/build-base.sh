#!/bin/sh
# Builds the lab's base image from Debian's archive: a root tree with mmdebstrap, an ext4 image of it
# (no partition table: the kernel boots it directly as /dev/vda), its kernel and initrd beside it.
# Usage: build-base.sh OUTDIR RECIPE_SHA256 SUITE MIRROR SIZE_MB PACKAGES GUEST_DIR
# Everything is made in OUTDIR.tmp and renamed to OUTDIR at the end: never a half-built image.
set -eu
out=$1 sha=$2 suite=$3 mirror=$4 size_mb=$5 packages=$6 guest=$7
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
# The guest's first-boot configuration (host key, address, coordinator key) comes from a small
# per-VM disk read by rarperf-lab-config.service; the base image has no host key of its own.
mmdebstrap --variant=apt --include="$packages" \
	--customize-hook="install -m 0755 '$guest/rarperf-lab-config' \"\$1/usr/local/sbin/rarperf-lab-config\"" \
	--customize-hook="install -m 0644 '$guest/rarperf-lab-config.service' \"\$1/etc/systemd/system/rarperf-lab-config.service\"" \
	--customize-hook="install -m 0644 '$guest/sshd-lab.conf' \"\$1/etc/ssh/sshd_config.d/rarperf-lab.conf\"" \
	--customize-hook='rm -f "$1"/etc/ssh/ssh_host_*' \
	--customize-hook='echo "/dev/vda / ext4 defaults 0 1" > "$1/etc/fstab"' \
	--customize-hook='chroot "$1" systemctl enable systemd-networkd.service rarperf-lab-config.service ssh.service' \
	--customize-hook='chroot "$1" systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer' \
	--customize-hook='echo rarperf-lab > "$1/etc/hostname"' \
	"$suite" "$tmp/root" "$mirror" >"$tmp/mmdebstrap.log" 2>&1 || {
	tail -20 "$tmp/mmdebstrap.log" >&2
	exit 1
}
t1=$(date +%s)
cp "$tmp"/root/boot/vmlinuz-* "$tmp/vmlinuz"
cp "$tmp"/root/boot/initrd.img-* "$tmp/initrd.img"
chmod 0644 "$tmp/vmlinuz" "$tmp/initrd.img"
mke2fs -q -t ext4 -L rarperf-root -d "$tmp/root" "$tmp/base.raw" "${size_mb}M"
rm -rf "$tmp/root"
qemu-img convert -O qcow2 "$tmp/base.raw" "$tmp/base.qcow2"
rm -f "$tmp/base.raw"
chmod 0644 "$tmp/base.qcow2"
t2=$(date +%s)
printf '{"recipe_sha256": "%s", "mmdebstrap_seconds": %d, "image_seconds": %d}\n' "$sha" $((t1 - t0)) $((t2 - t1)) >"$tmp/build.json"
echo "$sha" >"$tmp/recipe.sha256"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
