#!/usr/bin/python3
"""Surveys libvirt for a rarperf lab: which domains and networks are the lab's, and what collides.

Usage: labvm-survey.py URI PREFIX NETWORK BRIDGE CIDR COUNT HOST_INDEX FIRST_INDEX MODE PORT_BASE
MODE bridge: the VMs sit on the libvirt network NETWORK (bridge BRIDGE, range CIDR); MODE user:
each VM has qemu's user-mode network of its own and its sshd is forwarded to 127.0.0.1:PORT_BASE+n
(no bridge, no address of the host's: CIDR and BRIDGE are not checked).
Prints one JSON object: "vms" (each expected VM's name, UUID, MAC, the address and port the
controller connects to, its known_hosts name, and the address inside the guest), "host_ip" and
"prefixlen" (the hypervisor's side of the network), "domains" and "network" (the lab's that exist,
with state), "stray" (the lab's domains beyond COUNT), "conflicts" (one line each).
A domain or network is the lab's when its name is PREFIX<n> (or NETWORK) and its UUID is the one
derived from that name (uuid5, Ansible's to_uuid namespace): names are never guessed.
"""
import hashlib
import ipaddress
import json
import re
import socket
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET

NAMESPACE = uuid.UUID("361E6D51-FAEC-444A-9079-341386DA8E2E")  # ansible's to_uuid default


def lab_uuid(name):
    return str(uuid.uuid5(NAMESPACE, "rarperf-lab:" + name))


def virsh(uri, *args):
    out = subprocess.run(["virsh", "-q", "-c", uri, *args], check=True, capture_output=True, text=True)
    return out.stdout


def names(uri, kind):
    return [n.strip() for n in virsh(uri, kind + "-list", "--all", "--name").splitlines() if n.strip()]


def net_info(uri, name):
    root = ET.fromstring(virsh(uri, "net-dumpxml", name))
    nets = []
    for ip in root.findall("ip"):
        addr = ip.get("address")
        if not addr or ip.get("family", "ipv4") != "ipv4":
            continue
        plen = ip.get("prefix") or ip.get("netmask") or "24"
        nets.append(ipaddress.ip_network(f"{addr}/{plen}", strict=False))
    bridge = root.find("bridge")
    return {"uuid": root.findtext("uuid"), "nets": nets,
            "bridge": bridge.get("name") if bridge is not None else None}


# qemu's user-mode network (slirp): the guest's address, the only one its forwarded port reaches.
USER_GUEST_NET = "10.0.2.0/24"
USER_GUEST_IP = "10.0.2.15"
USER_GUEST_PREFIXLEN = 24


def port_taken(port):
    """True when something listens on 127.0.0.1:port (SO_REUSEADDR: sockets in TIME_WAIT do not count)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def main(argv):
    uri, prefix, network, bridge, cidr, count, host_index, first_index, mode, port_base = argv[1:11]
    user = mode == "user"
    lab_net = ipaddress.ip_network(cidr)
    expected = {f"{prefix}{i}": lab_uuid(f"{prefix}{i}") for i in range(1, int(count) + 1)}
    conflicts, domains, stray, vms = [], {}, [], []
    last = int(first_index) + int(count) - 1
    ports_ok = int(port_base) >= 1024 and int(port_base) + int(count) <= 65535
    if user and not ports_ok:
        conflicts.append(f"ports {int(port_base) + 1}-{int(port_base) + int(count)} are not all in 1025-65535")
    if not user and (int(host_index) < 1 or int(first_index) <= int(host_index)
                     or last >= lab_net.num_addresses - 1):
        conflicts.append(f"{lab_net} has no room for the controller at .{host_index} and {count} VMs "
                         f"from .{first_index}")
        last = -1
    for i, name in enumerate(expected):
        mac = hashlib.sha1(name.encode()).hexdigest()[:6]
        vm = {"name": name, "uuid": expected[name], "index": i + 1,
              "mac": "52:54:00:" + ":".join(mac[j:j + 2] for j in range(0, 6, 2))}
        if user:
            port = int(port_base) + i + 1
            # ssh and libssh name a host on another port than 22 "[addr]:port" in known_hosts
            vm.update(ip="127.0.0.1", port=port, ssh_name=f"[127.0.0.1]:{port}",
                      guest_ip=USER_GUEST_IP, guest_prefixlen=USER_GUEST_PREFIXLEN,
                      guest_net=USER_GUEST_NET)
        else:
            ip = str(lab_net[int(first_index) + i]) if last > 0 else ""
            vm.update(ip=ip, port=22, ssh_name=ip, guest_ip=ip, guest_prefixlen=lab_net.prefixlen)
        vms.append(vm)
    active = set(n.strip() for n in virsh(uri, "list", "--name").splitlines() if n.strip())
    for dom in [n.strip() for n in virsh(uri, "list", "--all", "--name").splitlines() if n.strip()]:
        dom_uuid = virsh(uri, "domuuid", dom).strip()
        ours = dom.startswith(prefix) and re.fullmatch(r"[1-9][0-9]*", dom[len(prefix):]) \
            and dom_uuid == lab_uuid(dom)
        if ours:
            domains[dom] = {"uuid": dom_uuid, "active": dom in active}
            if dom not in expected:
                stray.append(dom)
        elif dom in expected:
            conflicts.append(f"domain {dom} exists and is not this lab's (UUID {dom_uuid}, "
                             f"the lab's would be {expected[dom]})")
    if user and ports_ok:
        # a running VM of the lab holds its own port; any other listener would get its connections
        for vm in vms:
            if not domains.get(vm["name"], {}).get("active") and port_taken(vm["port"]):
                conflicts.append(f"127.0.0.1:{vm['port']} (the ssh port of {vm['name']}) is already in use")
    lab_network = None
    active_nets = set(n.strip() for n in virsh(uri, "net-list", "--name").splitlines() if n.strip())
    for net in names(uri, "net"):
        info = net_info(uri, net)
        if net == network and info["uuid"] == lab_uuid(network):
            lab_network = {"name": net, "uuid": info["uuid"], "active": net in active_nets}
            continue
        if user:
            continue  # no network of the lab's: nothing of another network's can collide
        if net == network:
            conflicts.append(f"network {net} exists and is not this lab's (UUID {info['uuid']})")
        if info["bridge"] == bridge:
            conflicts.append(f"network {net} already uses bridge {bridge}")
        for n in info["nets"]:
            if n.overlaps(lab_net):
                conflicts.append(f"network {net} uses {n}, which overlaps the lab's {lab_net}")
    addrs = json.loads(subprocess.run(["ip", "-j", "addr"], check=True, capture_output=True,
                                      text=True).stdout)
    for link in [] if user else addrs:
        for a in link.get("addr_info", []):
            if a.get("family") != "inet" or link.get("ifname") == bridge:
                continue
            n = ipaddress.ip_network(f"{a['local']}/{a['prefixlen']}", strict=False)
            if n.overlaps(lab_net):
                conflicts.append(f"interface {link['ifname']} has {a['local']}/{a['prefixlen']}, "
                                 f"which overlaps the lab's {lab_net}")
    if not user and lab_network is None and any(link.get("ifname") == bridge for link in addrs):
        conflicts.append(f"an interface named {bridge} (the lab's bridge) already exists")
    json.dump({"vms": vms, "host_ip": str(lab_net[int(host_index)]) if last > 0 else "",
               "prefixlen": lab_net.prefixlen, "network_uuid": lab_uuid(network), "domains": domains,
               "network": lab_network, "stray": sorted(stray), "conflicts": conflicts}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
