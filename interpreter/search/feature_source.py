"""The fixed source of ``feats``, the nonlinear evaluation features in machine code
(:mod:`rulesdsl.interpreter.search.native_features` says what it computes and what ``ft`` holds).

Appended to the search helpers of a native kernel whose evaluation uses one of :data:`NONLINEAR`
(:func:`rulesdsl.interpreter.search.native_search.search_source`; about 3 s of compiling, once, that
other kernels do without) and checked with them by ``check_source``; it imports nothing, so the
kernel's modules may import it at start-up.
"""

NONLINEAR = ("area", "threatened")  # the features ``feats`` computes, numbered from 1 in its table

FEATS = """
def feats(vv, turn, other, consts, ft):
    n = ft[0]
    bd = ft[11]
    sn = bd + n
    st = sn + n
    th = st + n
    ca = ft[3]
    sa = ft[4]
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
    adone = 0
    tdone = 0
    amine = 0
    atheir = 0
    s = consts[0] - consts[0]
    for f in range(ft[2]):
        at = ft[8] + 3 * f
        if ft[at] == 1:
            if not adone:
                adone = 1
                aa = areas(ft, n, bd, sn, st)
                amine = aa[turn]
                atheir = aa[other]
            s += consts[2 + f] * (amine - atheir)
        else:
            if not tdone:
                tdone = 1
                marks(ft, n, bd, th)
            s += consts[2 + f] * (tally(ft, n, bd, th + n * other, ft[at + 1 + turn])
                                  - tally(ft, n, bd, th + n * turn, ft[at + 1 + other]))
    return s


def areas(ft, n, bd, sn, st):
    a0 = 0
    a1 = 0
    ow = ft[5]
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


def marks(ft, n, bd, th):
    pt = ft[9]
    ps = ft[10]
    for c in range(n + n):
        ft[th + c] = 0
    for c in range(n):
        a = ft[bd + c]
        if a != 0:
            for r in range(ft[ps + c], ft[ps + c + 1]):
                at = pt + 5 * r
                if (ft[at + 1] >> a) & 1:
                    y = ft[at + 3]
                    v = ft[bd + y]
                    if v != 0 and (ft[at + 2] >> v) & 1 and (ft[at + 4] < 0 or ft[bd + ft[at + 4]] == 0):
                        ft[th + n * ft[at] + y] = 1


def tally(ft, n, bd, tp, kinds):
    found = 0
    for c in range(n):
        if ft[tp + c] != 0 and (kinds >> ft[bd + c]) & 1:
            found += 1
    return found
"""
