"""The fixed source of ``feats``, the nonlinear evaluation features in machine code
(:mod:`rulesdsl.interpreter.search.native_features` says what it computes and what ``ft`` holds).

Appended to every native kernel with the search helpers
(:func:`rulesdsl.interpreter.search.native_search.search_source`) and checked with them by
``check_source``; it imports nothing, so the kernel's modules may import it at start-up.
"""

FEATS = """
def feats(vv, turn, other, consts, ft):
    n = ft[0]
    bd = ft[11]
    sn = bd + n
    st = sn + n
    th = st + n
    ca = ft[3]
    sa = ft[4]
    ow = ft[5]
    for c in range(n):
        ft[bd + c] = 0
    for col in range(ft[1]):
        x = vv[col]
        while x:
            low = x & (u64(0) - x)
            cell = ft[ca + col * 64 + i64(popcount(low - u64(1)))]
            if cell >= 0:
                ft[bd + cell] = ft[sa + col]
            x ^= low
    done = 0
    amine = 0
    atheir = 0
    s = consts[0] - consts[0]
    for f in range(ft[2]):
        at = ft[8] + 3 * f
        if ft[at] == 1:
            if not done:
                done = 1
                aa = areas(ft, n, bd, sn, st, ow)
                amine = aa[turn]
                atheir = aa[other]
            s += consts[2 + f] * (amine - atheir)
        else:
            s += consts[2 + f] * (threats(ft, n, bd, th, turn, other, ft[at + 1 + turn])
                                  - threats(ft, n, bd, th, other, turn, ft[at + 1 + other]))
    return s


def areas(ft, n, bd, sn, st, ow):
    a0 = 0
    a1 = 0
    nb = ft[6]
    dg = ft[7]
    for c in range(n):
        ft[sn + c] = 0
        o = ft[ow + ft[bd + c]]
        if o == 0:
            a0 += 1
        elif o == 1:
            a1 += 1
    for c in range(n):
        if ft[bd + c] == 0 and ft[sn + c] == 0:
            ft[sn + c] = 1
            ft[st] = c
            top = 1
            size = 0
            bm = 0
            while top:
                top -= 1
                e = ft[st + top]
                size += 1
                for k in range(dg):
                    y = ft[nb + e * dg + k]
                    if y >= 0:
                        z = ft[bd + y]
                        if z == 0:
                            if ft[sn + y] == 0:
                                ft[sn + y] = 1
                                ft[st + top] = y
                                top += 1
                        else:
                            o = ft[ow + z]
                            if o == 0:
                                bm |= 1
                            elif o == 1:
                                bm |= 2
            if bm == 1:
                a0 += size
            elif bm == 2:
                a1 += size
    return a0, a1


def threats(ft, n, bd, th, me, them, kinds):
    for c in range(n):
        ft[th + c] = 0
    found = 0
    pt = ft[9]
    for r in range(ft[10]):
        at = pt + 6 * r
        if ft[at] == them:
            a = ft[bd + ft[at + 3]]
            if a != 0 and (ft[at + 1] >> a) & 1:
                v = ft[bd + ft[at + 4]]
                if v != 0 and (ft[at + 2] >> v) & 1 and (ft[at + 5] < 0 or ft[bd + ft[at + 5]] == 0):
                    if (kinds >> v) & 1 and ft[th + ft[at + 4]] == 0:
                        ft[th + ft[at + 4]] = 1
                        found += 1
    return found
"""
