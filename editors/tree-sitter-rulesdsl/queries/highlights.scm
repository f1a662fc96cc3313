; Highlights for rulesdsl rule files (capture names as Neovim's; docs/editors.md shows Helix's).

(comment) @comment
(string) @string
(integer) @number
(decimal) @number
(signed_number) @number
(boolean) @boolean

; The game's title, and an example's
(game_statement title: (string) @label)
(example_statement title: (string) @label)

; Declarations: options, players, piece kinds, direction sets
(option_statement name: (name) @variable.parameter)
(setting name: (name) @variable.parameter)
(player_declaration player: (name) @constant)
(symbol_declaration player: (name) @constant)
(piece_statement kind: (name) @type)
(directions_statement name: (name) @constant)
(region_statement name: (name) @constant)
(region_part player: (name) @constant cell: (name) @constant)
(track_statement name: (name) @constant cell: (name) @constant)
(counts_statement kind: (name) @type)
(score_part player: (name) @constant)

; Uses: piece kinds, players, directions, cells
(move_rule kind: (name) @type)
(place_rule kind: (name) @type)
(fly_rule kind: (name) @type)
(remove_rule kind: (name) @type)
(sow_rule kind: (name) @type)
(put_in kind: (name) @type)
(custodial against: (name) @constant)
(place_at kind: (name) @type player: (name) @constant)
(place_where kind: (name) @type player: (name) @constant)
(promote_statement kind: (name) @type to: (name) @type)
(hand_statement piece: (name) @type)
(captured_statement piece: (name) @type)
(feature kind: (name) @type)
(end_rule player: (name) @constant)
(condition player: (name) @constant)
(forward_statement player: (name) @constant direction: (name) @constant)
(direction) @constant
(cell) @constant
(board_line cell: (name) @constant)

; Words of the language
(action) @function.builtin
(feature_name) @function.builtin
(result) @keyword
(call function: (name) @function.builtin)

[
  "game" "extends" "option" "players" "forward" "board" "lines" "drawn" "hand" "cells" "position"
  "notation" "directions" "piece" "start" "moves" "style" "again" "then" "freeze" "forbid" "end"
  "misere" "pass" "promote" "must" "keep" "evaluate" "example" "region" "track" "counts" "score" "link"
] @keyword

[
  "if" "in" "grid" "hexagon" "rhombus" "x" "where" "column" "row" "from" "top" "right" "turn"
  "last" "rows" "bottom" "first" "to" "empty" "at" "place" "fly" "remove" "rectangle" "clockwise" "anticlockwise" "either" "way" "half" "round" "falling" "flanking"
  "except" "a" "when" "over" "capture" "by" "pieces" "line" "flying" "after" "with" "any"
  "same" "one" "move" "direction" "strict" "loose" "repetition" "corner" "push-off" "no" "on"
  "far" "most" "draw" "perft" "result" "none" "nobody" "can" "has" "beyond" "every" "connects"
  "along" "forms" "group" "plies" "without" "turns" "played" "skipping" "enclosing" "custodial"
  "of" "length" "against" "immediate" "suicide" "points" "passes" "repeated"
  "exactly" "within" "unmoved" "safe" "bringing" "passing" "blocked" "taking" "leaving" "attacked" "landing"
  "since" "repetitions" "passed" "clock" "turns" "passes" "before" "best" "sow" "put" "into"
  "fills" "new" "finishes" "is" "out" "places"
  "joins" "corners" "edges" "ring" "boards" "won" "sent" "walk" "build" "reach" "drop" "captured" "as" "dropping" "giving" "mate" "forced" "one" "per"
  "swap" "turning" "links"
] @keyword

[ "and" "or" "not" ] @keyword.operator

[ "==" "!=" "<=" ">=" "<" ">" "+" "-" "*" "/" "%" "=" ".." ] @operator

[ "(" ")" "{" "}" ] @punctuation.bracket
"," @punctuation.delimiter
