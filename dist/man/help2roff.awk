# help2roff.awk - one help text of ipxlab (`ipxlab CMD --help`) as man(7)
# source, for dist/man/gen-man.sh. The help texts follow one layout, which
# this reads:
#   usage: ipxlab CMD ARGS        the synopsis (more usage lines indented 7)
#   unindented lines              paragraphs (a blank line ends one)
#   "  TAG   description" lines   tagged paragraphs: options, verbs,
#                                 parameters; a tag and its description
#                                 are two or more blanks apart
#   deeper indented lines         the description goes on; deeper still
#                                 than the description: a line of its own
# -v sections=1 writes the SYNOPSIS, DESCRIPTION and OPTIONS headings (a
# command's page); 0 a synopsis paragraph and the rest (a verb's section).

# Text safe for roff: backslashes, and a leading . or ' (a request).
function esc(s) {
	gsub(/\\/, "\\\\e", s)
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}

# An option-like word bold, its hyphens as roff minus signs.
function dashes(s) {
	gsub(/-/, "\\\\-", s)
	return s
}

# Text with every option-like word (-x, --name) bold.
function words_roff(t,   n, i, w, out, head) {
	n = split(esc(t), w, " ")
	out = ""
	for (i = 1; i <= n; i++) {
		if (match(w[i], /^--?[A-Za-z0-9][-A-Za-z0-9]*/)) {
			head = substr(w[i], 1, RLENGTH)
			w[i] = "\\fB" head "\\fR" substr(w[i], RLENGTH + 1)
		}
		out = out (i > 1 ? " " : "") dashes(w[i])
	}
	return out
}

# Synopsis: the leading lower-case words (ipxlab, the command, a verb)
# bold, the rest as written; a line may break after a "|" (\:) of a long
# list of alternatives.
function synopsis_roff(s,   n, i, w, out, bold) {
	n = split(esc(s), w, " ")
	out = ""
	bold = 1
	for (i = 1; i <= n; i++) {
		if (bold && w[i] !~ /^[a-z][a-z0-9]*$/)
			bold = 0
		if (!bold)
			gsub(/\|/, "|\\:", w[i])
		out = out (i > 1 ? " " : "") (bold ? "\\fB" w[i] "\\fR" : dashes(w[i]))
	}
	return out
}

# The first line "usage: ...", and more usage lines aligned under it.
function is_usage(i) {
	if (i == 1)
		return line[i] ~ /^usage: /
	return indent_of(line[i]) == 7 && line[i] ~ /^ +ipxlab /
}

function indent_of(s) {
	match(s, /^ */)
	return RLENGTH
}

# Split an entry line into TAG and DESC; DCOL = the description's column
# (0 when the line is all tag). A tag that ran into its description with
# one blank ("--connect-timeout S give up", "netbios NetBIOS datagram")
# ends at the first blank at or past the help text's usual column, when it
# is an option or one word.
function split_entry(line, ind,   rest, p, q) {
	rest = substr(line, ind + 1)
	p = match(rest, /   */)
	if (p) {
		TAG = substr(rest, 1, p - 1)
		DESC = substr(rest, p + RLENGTH)
		DCOL = ind + p - 1 + RLENGTH
		return
	}
	TAG = rest
	DESC = ""
	DCOL = 0
	if (!usual || length(line) <= usual)
		return
	q = index(substr(line, usual), " ")
	if (!q)
		return
	q += usual - 1
	p = substr(line, ind + 1, q - ind - 1)
	if (p ~ /^-/ || p !~ / /) {
		TAG = p
		DESC = substr(line, q + 1)
		DCOL = q
	}
}

{
	sub(/[ \t\r]+$/, "")
	line[++n] = $0
}

END {
	# The usual description column: the commonest among entry lines.
	for (i = 1; i <= n; i++) {
		ind = indent_of(line[i])
		if (ind > 0 && match(substr(line[i], ind + 1), /   */)) {
			split_entry(line[i], ind)
			if (++count[DCOL] > best) {
				best = count[DCOL]
				usual = DCOL
			}
		}
	}

	i = 1
	if (sections)
		print ".SH SYNOPSIS"
	else
		print ".PP"
	# left-adjusted (as the whole page, gen-man.sh): justified, a long
	# unbreakable word spread the rest of the line into wide gaps
	print ".ad l"
	while (i <= n && is_usage(i)) {
		s = line[i]
		sub(/^(usage:)? +/, "", s)
		if (i > 1)
			print ".br"
		print synopsis_roff(s)
		i++
	}
	if (sections)
		print ".SH DESCRIPTION"
	mode = "start"	# start, blank, para, entry
	for (; i <= n; i++) {
		s = line[i]
		if (s == "") {
			if (mode != "start")
				mode = "blank"
			continue
		}
		ind = indent_of(s)
		text = substr(s, ind + 1)
		if (ind == 0) {
			if (mode != "para" && mode != "start")
				print ".PP"
			if (mode == "start" && !sections)
				print ".PP"
			print words_roff(text)
			mode = "para"
			continue
		}
		# Deeper than the entry it follows: its description goes on
		# (a line starting with '-' there is a new option unless it
		# sits at the description's column).
		if (mode == "entry" && ind > eind &&
		    (text !~ /^-/ || (dcol && ind >= dcol))) {
			if (!dcol)
				dcol = ind
			if (ind > dcol) {
				print ".br"
				print "\\ \\ " words_roff(text)
				literal = 1
			} else {
				if (literal)
					print ".br"
				literal = 0
				print words_roff(text)
			}
			continue
		}
		split_entry(s, ind)
		if (sections && !options_done && text ~ /^-/ &&
		    (mode == "blank" || mode == "start")) {
			print ".SH OPTIONS"
			options_done = 1
		}
		print ".TP"
		print (TAG ~ /^-/ ? words_roff(TAG) : synopsis_roff(TAG))
		if (DESC != "")
			print words_roff(DESC)
		mode = "entry"
		eind = ind
		dcol = DCOL
		literal = 0
	}
}
