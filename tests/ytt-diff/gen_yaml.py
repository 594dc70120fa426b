"""The YAML nodes gen.py's generators build, and their rendering as block or flow YAML text."""

import json


class Y:
    """A YAML node: kind 'map' (items: [[key, Y]]), 'seq' (items: [Y]) or 'scalar' (text/block)."""
    def __init__(self, kind, items=None, text='', block=None, anns=None, **meta):
        self.kind, self.items, self.text, self.block = kind, items if items is not None else [], text, block
        self.anns = anns or []
        self.meta = meta
        self.flow = False

    def copy(self):
        c = Y(self.kind, [[k, v.copy()] for k, v in self.items] if self.kind == 'map' else
              [v.copy() for v in self.items], self.text, self.block, list(self.anns), **dict(self.meta))
        c.flow = self.flow
        return c


def sc(text, **meta):
    return Y('scalar', text=text, **meta)


# ---------------------------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------------------------

def flow_text(n):
    if n.kind == 'scalar':
        if n.block is not None:
            return json.dumps('\n'.join(n.block[1]))
        return n.text if n.text != '' else 'null'
    if n.kind == 'seq':
        return '[' + ', '.join(flow_text(i) for i in n.items) + ']'
    return '{' + ', '.join('%s: %s' % (k, flow_text(v)) for k, v in n.items) + '}'


def emit_value(prefix, v, ind, out, seq_ind):
    if v.kind == 'scalar':
        if v.block is not None:
            out.append(prefix + ' ' + v.block[0])
            for ln in v.block[1]:
                out.append((' ' * (ind + 2) + ln) if ln else '')
        elif v.text == '':
            out.append(prefix)
        else:
            out.append(prefix + ' ' + v.text)
    elif v.kind == 'map':
        if not v.items:
            out.append(prefix + ' {}')
        elif v.flow:
            out.append(prefix + ' ' + flow_text(v))
        else:
            out.append(prefix)
            render_map(v.items, ind + 2, out, seq_ind)
    else:
        if not v.items:
            out.append(prefix + ' []')
        elif v.flow:
            out.append(prefix + ' ' + flow_text(v))
        else:
            out.append(prefix)
            render_seq(v.items, ind + seq_ind, out, seq_ind)


def render_map(items, ind, out, seq_ind=2):
    for k, v in items:
        for a in v.anns:
            out.append(' ' * ind + '#@' + a)
        emit_value(' ' * ind + k + ':', v, ind, out, seq_ind)


def render_seq(items, ind, out, seq_ind=2):
    for v in items:
        for a in v.anns:
            out.append(' ' * ind + '#@' + a)
        if v.kind == 'map' and v.items and not v.flow and not v.items[0][1].anns:
            tmp = []
            render_map(v.items, ind + 2, tmp, seq_ind)
            tmp[0] = ' ' * ind + '- ' + tmp[0][ind + 2:]
            out.extend(tmp)
        else:
            emit_value(' ' * ind + '-', v, ind, out, seq_ind)


def render_doc(root, seq_ind=2):
    out = []
    if root.kind == 'map':
        render_map(root.items, 0, out, seq_ind)
    elif root.kind == 'seq':
        render_seq(root.items, 0, out, seq_ind)
    else:
        out.append(root.text)
    return out
