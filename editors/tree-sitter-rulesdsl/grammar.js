/**
 * Tree-sitter grammar for rulesdsl rule files (*.rules).
 *
 * It follows rulesdsl/grammar.lark statement by statement (the lark grammar
 * is the language's definition; tests/test_tree_sitter.py checks that every
 * keyword written there is a keyword here, and parses every bundled rule
 * file). Line breaks carry no meaning; `#` starts a comment to the end of the
 * line. Keywords are whole words (`word: $ => $.name`), so a piece called
 * `stone` or a direction called `n` stays a name.
 */

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)));

const PREC = {or: 1, and: 2, not: 3, compare: 4, sum: 5, product: 6, unary: 7};

module.exports = grammar({
  name: 'rulesdsl',

  word: ($) => $.name,

  extras: ($) => [/\s/, $.comment],
  // `enclosing DIR in sent board` or `enclosing KIND in REGION`: the words after 'in' tell
  conflicts: ($) => [[$.enclosing, $.direction]],

  rules: {
    source_file: ($) => repeat($._statement),

    _statement: ($) => choice(
      $.game_statement,
      $.extends_statement,
      $.option_statement,
      $.players_statement,
      $.forward_statement,
      $.board_statement,
      $.lines_statement,
      $.drawn_statement,
      $.hand_statement,
      $.captured_statement,
      $.cells_statement,
      $.block_statement,
      $.boards_statement,
      $.position_statement,
      $.notation_statement,
      $.directions_statement,
      $.region_statement,
      $.track_statement,
      $.counts_statement,
      $.score_statement,
      $.link_statement,
      $.piece_statement,
      $.start_statement,
      $.moves_statement,
      $.style_statement,
      $.again_statement,
      $.then_statement,
      $.freeze_statement,
      $.forbid_statement,
      $.end_statement,
      $.misere_statement,
      $.pass_statement,
      $.promote_statement,
      $.must_statement,
      $.keep_statement,
      $.evaluate_statement,
      $.example_statement,
    ),

    guard: ($) => seq('if', $._expression),

    game_statement: ($) => seq('game', field('title', $.string)),
    extends_statement: ($) => seq('extends', field('file', $.string)),

    option_statement: ($) => seq(
      'option', field('name', $.name), '=', field('default', $._expression),
      optional($.option_range), optional(field('description', $.string)),
    ),
    option_range: ($) => choice(
      seq('in', $._expression, '..', $._expression),
      seq('in', commaSep1($.string)),
    ),

    players_statement: ($) => seq('players', commaSep1($.player_declaration), optional($.guard)),
    player_declaration: ($) => seq(field('player', $.name), field('symbol', $.string)),


    forward_statement: ($) => seq('forward', commaSep1(seq(field('player', $.name), field('direction', $.name)))),

    board_statement: ($) => seq(
      'board',
      choice(
        seq('grid', $._expression, 'x', $._expression),
        seq('hexagon', $._expression),
        seq('rhombus', $._expression, 'x', $._expression),
      ),
      optional(seq('where', $._expression)),
      optional($.guard),
    ),
    lines_statement: ($) => seq('lines', commaSep1($.board_line), optional($.guard)),
    drawn_statement: ($) => seq('drawn', 'lines', commaSep1($.board_line), optional($.guard)),
    board_line: ($) => seq(field('cell', $.name), repeat1(field('cell', $.name))),
    hand_statement: ($) => seq(
      'hand', field('piece', $.name), $._expression,
      repeat(seq(',', field('piece', $.name), $._expression)), optional($.guard),
    ),
    captured_statement: ($) => seq(
      'captured', commaSep1(field('piece', $.name)), 'to', 'hand', optional(seq('as', field('piece', $.name))),
      optional($.guard),
    ),
    region_statement: ($) => seq(
      'region', field('name', $.name),
      choice(seq('where', $._expression), commaSep1($.region_part)),
      optional($.guard),
    ),
    region_part: ($) => seq(field('player', $.name), choice(repeat1(field('cell', $.name)), seq('where', $._expression))),
    link_statement: ($) => seq('link', field('kind', $.name), $.direction_list, optional($.guard)),
    track_statement: ($) => seq('track', field('name', $.name), repeat1(field('cell', $.name)), optional($.guard)),
    counts_statement: ($) => seq('counts', field('kind', $.name), optional($.guard)),
    score_statement: ($) => seq('score', commaSep1($.score_part), optional($.guard)),
    score_part: ($) => seq(field('player', $.name), $._expression),

    cells_statement: ($) => seq('cells', $.name_part, repeat(seq(optional(','), $.name_part))),
    name_part: ($) => seq(
      choice('column', 'row'), choice($.string, $.integer),
      optional(seq('from', choice('top', 'right'))),
      optional(seq('skipping', field('skipped', $.string))),
    ),

    block_statement: ($) => seq(
      'rectangle', field('name', $.name), field('cell', $.name), '..', field('cell', $.name), optional($.guard),
    ),

    boards_statement: ($) => seq(
      'boards', $._expression, 'x', $._expression, 'won', 'by', choice($.integer, $.name), 'in', 'a', 'row',
      optional($.guard),
    ),

    position_statement: ($) => seq(
      'position', '(', repeat1(choice('turn', 'last', 'hand', 'rows', 'board', 'unmoved', 'passed', 'clock', 'links', 'turns', 'passes', 'before', 'places')), ')',
      optional(seq(choice('top', 'bottom'), 'first')),
    ),
    notation_statement: ($) => seq('notation', repeat1(choice('from', 'to', $.string))),

    directions_statement: ($) => seq('directions', field('name', $.name), '=', $.direction_list),

    piece_statement: ($) => seq(
      'piece', field('kind', $.name),
      choice(commaSep1($.symbol_declaration), field('symbol', $.string)),
    ),
    symbol_declaration: ($) => seq(field('player', $.name), field('symbol', $.string)),

    start_statement: ($) => seq(
      'start',
      choice(
        seq(field('position', $.string), optional($.guard)),
        seq(optional($.guard), '{', repeat($._start_item), '}'),
      ),
    ),
    _start_item: ($) => choice($.place_where, $.place_in, $.empty_at, $.put_in, $.place_at),
    put_in: ($) => seq('put', $._expression, field('kind', $.name), 'in', field('region', $.name)),
    place_in: ($) => seq(field('kind', $.name), field('player', $.name), 'in', field('region', $.name)),
    place_where: ($) => seq(field('kind', $.name), field('player', $.name), 'where', $._expression),
    empty_at: ($) => seq('empty', 'at', commaSep1($._cell_reference)),
    place_at: ($) => seq(field('kind', $.name), field('player', $.name), 'at', commaSep1($._cell_reference)),
    _cell_reference: ($) => choice($.cell, $.cell_xy),
    cell: ($) => $.name,
    cell_xy: ($) => seq('(', $._expression, ',', $._expression, ')'),

    moves_statement: ($) => seq('moves', optional($.guard), '{', repeat($._move_rule), '}'),
    _move_rule: ($) => choice(
      $.move_rule, $.place_rule, $.sow_rule, $.pass_rule, $.fly_rule, $.remove_rule, $.turn_rule, $.walk_rule,
      $.build_rule,
      $.drop_rule,
      $.swap_rule,
    ),
    move_rule: ($) => seq(
      field('kind', $.name), $.action, $.direction_list, repeat($._move_option),
      optional($.when), optional($.guard),
    ),
    place_rule: ($) => seq(
      'place', field('kind', $.name),
      optional(choice(seq('from', 'last', $.action, $.direction_list), seq('from', 'hand'))),
      optional(seq('in', field('region', $.name))),
      optional(seq('falling', $.direction)),
      optional(seq('flanking', $.direction_list)),
      optional($.enclosing),
      optional(seq('in', 'sent', 'board')),
      optional($.when), optional($.guard),
    ),
    enclosing: ($) => choice(
      seq('enclosing', $.direction_list),
      seq('enclosing', field('kind', $.name), 'in', field('region', $.name), optional('again')),
    ),
    sow_rule: ($) => seq(
      'sow', field('kind', $.name), 'from', field('region', $.name), 'along', field('track', $.name),
      repeat($._sow_option), optional($.when), optional($.guard),
    ),
    _sow_option: ($) => choice(
      seq('skipping', field('region', $.name)),
      seq('again', 'in', field('region', $.name)),
      seq('capture', $.direction, 'into', field('region', $.name)),
    ),
    pass_rule: ($) => seq('pass', optional($.when), optional($.guard)),
    fly_rule: ($) => seq('fly', field('kind', $.name), optional($.when), optional($.guard)),
    remove_rule: ($) => seq(
      'remove', field('kind', $.name),
      optional(seq('except', choice($.integer, $.name), 'in', 'a', 'row')),
      optional($.when), optional($.guard),
    ),
    turn_rule: ($) => seq(
      'turn', commaSep1(field('block', $.name)),
      choice('clockwise', 'anticlockwise', seq('either', 'way'), seq('half', 'round'), 'over'),
      optional($.when), optional($.guard),
    ),
    walk_rule: ($) => seq('walk', field('kind', $.name), $.direction_list, optional($.when), optional($.guard)),
    drop_rule: ($) => seq(
      'drop', field('kind', $.name), optional(seq('in', field('region', $.name))),
      optional(seq('one', 'per', 'column')), optional($.when),
      optional($.guard),
    ),
    build_rule: ($) => seq(
      'build', field('kind', $.name), optional(seq('from', 'hand')), optional($.when), optional($.guard),
    ),
    swap_rule: ($) => seq(
      'swap',
      optional(seq('turning', choice('clockwise', 'anticlockwise', seq('either', 'way'), seq('half', 'round'), 'over'))),
      optional(seq('in', field('region', $.name))), optional($.when), optional($.guard),
    ),
    when: ($) => seq('when', $._expression),
    action: (_) => choice('step', 'jump', 'slide', 'push'),
    _move_option: ($) => choice(
      seq('over', field('over', $.name)),
      seq('to', commaSep1Or($.name)),
      'capture',
      seq('by', 'pieces', 'in', 'line'),
      'flying',
      $.custodial,
      seq('line', $.integer, optional(seq('..', optional($.integer)))),
      seq('exactly', $.integer),
      seq('from', field('region', $.name)),
      seq('within', field('region', $.name)),
      'unmoved',
      'safe',
      seq('bringing', field('kind', $.name)),
      'passing',
      'blocked',
      seq('taking', field('kind', $.name)),
    ),
    custodial: ($) => seq(
      'custodial', $.direction_list, optional(seq('of', 'any', 'length')),
      optional(seq('against', commaSep1(field('against', $.name)))),
    ),
    direction_list: ($) => prec.right(commaSep1($.direction)), // a comma after a direction continues the list
    direction: ($) => choice($.name, $.relative_direction, $.vector, seq($.name, $.vector)),
    vector: ($) => seq('(', $.integer, ',', $.integer, ')'),
    relative_direction: (_) => token(prec(2, /(forward|backward)-(left|right)/)),

    then_statement: ($) => seq(
      'then', optional(seq('after', choice($.integer, $.name), 'in', 'a', 'row')), optional($.guard),
      '{', repeat($._move_rule), '}',
    ),
    again_statement: ($) => seq(
      'again', optional(seq('after', field('action', $.name))), 'with', choice('any', 'same'), 'piece',
      optional(choice(seq('in', choice(seq('one', 'move'), seq('same', 'direction'))), seq('to', 'new', 'cells'))),
      optional(seq('or', 'pass')),
      optional($.guard),
    ),
    freeze_statement: ($) => seq('freeze', choice('strict', 'loose'), optional($.guard)),
    forbid_statement: ($) => seq('forbid', choice(
      'repetition', seq('corner', 'push-off'), seq('immediate', 'repetition'), 'suicide',
      seq('leaving', field('kind', $.name), 'attacked'),
      seq('dropping', field('kind', $.name), 'giving', 'mate'),
    ), optional($.guard)),
    style_statement: (_) => seq('style', 'points'),
    misere_statement: ($) => seq('misere', optional($.guard)),
    pass_statement: ($) => seq('pass', 'when', 'no', 'moves', optional($.guard)),
    promote_statement: ($) => seq(
      'promote', field('kind', $.name), 'to', commaSep1(field('to', $.name)),
      choice(seq('on', 'far', 'row'), seq('in', field('region', $.name), optional(seq('forced', 'in',
        field('region', $.name))))),
      optional($.guard),
    ),
    must_statement: ($) => seq('must', 'capture', optional('most'), optional(seq('by', 'landing')), optional($.guard)),
    keep_statement: ($) => seq('keep', $._expression),

    end_statement: ($) => seq('end', '{', repeat($.end_rule), '}'),
    end_rule: ($) => choice(
      seq(field('player', $.name), $.result, 'if', $._expression),
      seq('draw', 'if', $._expression),
      seq('best', 'score', $.result, 'if', $._expression),
      seq(field('player', $.name), choice('finishes', seq('is', 'out')), 'if', $._expression),
    ),
    result: (_) => choice('wins', 'loses'),

    evaluate_statement: ($) => seq('evaluate', optional($.guard), '{', repeat($.feature), '}'),
    feature: ($) => seq($.feature_name, optional(field('kind', $.name)), field('weight', $.signed_number)),
    feature_name: (_) => choice('material', 'mobility', 'advancement', 'centrality', 'captures', 'threatened', 'score', 'area'),

    example_statement: ($) => seq(
      'example', optional(field('title', $.string)),
      choice('start', seq('position', field('position', $.string))),
      optional(seq('with', commaSep1($.setting))),
      $._expectation,
    ),
    setting: ($) => seq(field('name', $.name), '=', $._expression),
    _expectation: ($) => choice(
      seq('moves', optional(commaSep1($.string))),
      seq('perft', commaSep1($.integer)),
      seq('result', field('player', $.name), $.result),
      seq('result', 'draw'),
      seq('result', 'none'),
      seq('result', 'places', commaSep1(seq(field('player', $.name), $.integer))),
    ),

    // ---- expressions ----------------------------------------------------
    _expression: ($) => choice(
      $.binary_expression, $.not_expression, $.negation, $.integer, $.decimal, $.boolean, $.string, $.name,
      $.call, $.parenthesized, $.condition,
    ),
    binary_expression: ($) => choice(
      prec.left(PREC.or, seq($._expression, 'or', $._expression)),
      prec.left(PREC.and, seq($._expression, 'and', $._expression)),
      prec.left(PREC.compare, seq($._expression, choice('==', '!=', '<=', '>=', '<', '>'), $._expression)),
      prec.left(PREC.sum, seq($._expression, choice('+', '-'), $._expression)),
      prec.left(PREC.product, seq($._expression, choice('*', '/', '%'), $._expression)),
    ),
    not_expression: ($) => prec(PREC.not, seq('not', $._expression)),
    negation: ($) => prec(PREC.unary, seq('-', $._expression)),
    boolean: (_) => choice('true', 'false'),
    call: ($) => seq(field('function', $.name), '(', repeat($.name), ')'),
    parenthesized: ($) => seq('(', $._expression, ')'),
    condition: ($) => choice(
      seq('no', 'moves'),
      seq('nobody', 'can', 'move'),
      seq(field('player', $.name), 'has', 'no', field('kind', $.name)),
      seq(field('player', $.name), 'has', field('kind', $.name), 'beyond', 'every', $.name, $.name),
      seq(field('player', $.name), 'has', field('kind', $.name), 'on', 'far', 'row'),
      seq(field('player', $.name), 'can', 'reach', 'far', 'row'),
      seq(field('player', $.name), 'has', choice($.integer, $.name), 'in', 'a', 'row'),
      seq(field('player', $.name), 'has', choice($.integer, $.name), 'in', 'a', 'row', 'of', 'boards'),
      seq(field('player', $.name), 'connects', $.name, 'and', $.name, choice(optional(seq('along', $.direction_list)), seq('by', 'links'))),
      seq(field('player', $.name), 'forms', 'one', 'group', optional(seq('along', $.direction_list))),
      seq(field('player', $.name), 'fills', field('region', $.name)),
      seq(field('player', $.name), 'joins', choice($.integer, $.name), choice('corners', 'edges')),
      seq(field('player', $.name), 'forms', 'a', 'ring'),
      seq('plies', 'without', 'capture'),
      seq('turns', 'played'),
      seq('passes', 'in', 'a', 'row'),
      seq('board', 'repeated'),
      seq('plies', 'since', field('kind', $.name), 'move', 'or', 'capture'),
      'repetitions',
    ),

    // ---- tokens ---------------------------------------------------------
    name: (_) => /[A-Za-z_][A-Za-z0-9_]*/,
    integer: (_) => /[0-9]+/,
    decimal: (_) => /[0-9]+\.[0-9]+/,
    signed_number: (_) => /[+-]?[0-9]+(\.[0-9]+)?/,
    string: (_) => token(choice(/"([^"\\\n]|\\.)*"/, /'([^'\\\n]|\\.)*'/)),
    comment: (_) => token(seq('#', /[^\n]*/)),
  },
});

/** `to a or b or c`: one name or several joined by `or`. */
function commaSep1Or(rule) {
  return seq(rule, repeat(seq('or', rule)));
}
