/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * evhdr.h - the EventHeader convention (the self-describing events Linux TraceLogging writes
 * through user_events): decode an event's header, its extensions (activity id, metadata) and
 * its metadata (event name, field definitions), and check tracepoint names
 * (Provider_L<level>K<keyword>[Options]).
 *
 * Nothing read is trusted: every length is checked against the bytes there are, and a
 * malformed event is refused with -EBADMSG and a short reason, never read past its end.
 * Layout (little-endian unless the header's flags say otherwise):
 *   header: u8 flags, u8 version, u16 id, u16 tag, u8 opcode, u8 level       (8 bytes)
 *   if flags & EVHDR_F_EXT, extensions: u16 size, u16 kind (bit 15: another follows), data
 *   then the payload.
 *
 * Thread use: any thread (no state).
 */
#ifndef LAT_BASE_EVHDR_H
#define LAT_BASE_EVHDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#define EVHDR_SIZE 8	       /* the header */
#define EVHDR_NAME_MAX 256     /* a tracepoint name, its NUL included */
#define EVHDR_ID_SIZE 16       /* an activity id */
#define EVHDR_F_PTR64 0x01     /* flags: pointers are 64-bit */
#define EVHDR_F_LE 0x02	       /* flags: little-endian */
#define EVHDR_F_EXT 0x04       /* flags: extensions follow the header */
#define EVHDR_EXT_CHAIN 0x8000 /* extension kind: another extension follows */
#define EVHDR_EXT_METADATA 1
#define EVHDR_EXT_ACTIVITY 2
#define EVHDR_OP_INFO 0
#define EVHDR_OP_START 1 /* activity start */
#define EVHDR_OP_STOP 2	 /* activity stop */
/* The fields every EventHeader tracepoint is registered with (user_events command). */
#define EVHDR_TP_FIELDS "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"

/* Field encodings (low 5 bits of a field's encoding byte) and the encoding byte's flags. */
enum evhdr_enc {
	EVHDR_ENC_STRUCT = 1,
	EVHDR_ENC_VALUE8,
	EVHDR_ENC_VALUE16,
	EVHDR_ENC_VALUE32,
	EVHDR_ENC_VALUE64,
	EVHDR_ENC_VALUE128,
	EVHDR_ENC_ZSTRING8,
	EVHDR_ENC_ZSTRING16,
	EVHDR_ENC_ZSTRING32,
	EVHDR_ENC_STRING16_8,
	EVHDR_ENC_STRING16_16,
	EVHDR_ENC_STRING16_32,
	EVHDR_ENC_BINARY16_8,
	EVHDR_ENC__MAX,
};
#define EVHDR_ENC_MASK 0x1f
#define EVHDR_ENC_CARRAY 0x20 /* a constant-length array: u16 length in the metadata */
#define EVHDR_ENC_VARRAY 0x40 /* a variable-length array: u16 count in the payload */
#define EVHDR_ENC_CHAIN 0x80  /* a format byte follows */
#define EVHDR_FMT_CHAIN 0x80  /* a u16 tag follows the format byte */
#define EVHDR_FMT_UNSIGNED 1
#define EVHDR_FMT_STRING_UTF 12 /* (12 is UTF with a byte-order mark when present) */
/* Field formats (a field's format byte without its chain flag; 0 = the encoding's default). */
enum evhdr_fmt {
	EVHDR_FMT_DEFAULT = 0,
	EVHDR_FMT_SIGNED = 2,
	EVHDR_FMT_HEX = 3,
	EVHDR_FMT_ERRNO = 4,
	EVHDR_FMT_PID = 5,
	EVHDR_FMT_TIME = 6,
	EVHDR_FMT_BOOL = 7,
	EVHDR_FMT_FLOAT = 8,
	EVHDR_FMT_HEXBYTES = 9,
	EVHDR_FMT_STRING8 = 10,
	EVHDR_FMT_UTF = 11,
	EVHDR_FMT_UUID = 15,
	EVHDR_FMT_PORT = 16,
	EVHDR_FMT_IP = 17,
	EVHDR_FMT_IP_OLD = 18,
};
#define EVHDR_DEPTH_MAX 8 /* structs nested in arrays of structs, deepest decoded */

/* One decoded event; the pointers point into the buffer given to evhdr__decode. */
struct evhdr_event {
	uint8_t flags, version, opcode, level;
	uint16_t id, tag;
	bool has_activity, has_related;
	uint8_t activity[EVHDR_ID_SIZE], related[EVHDR_ID_SIZE];
	const uint8_t *meta; /* the metadata extension, or NULL */
	uint32_t meta_len;
	const uint8_t *payload;
	uint32_t payload_len;
};

/* One field definition of an event's metadata. */
struct evhdr_field {
	const char *name; /* not NUL-terminated: name_len bytes, attributes (";a=b") cut off */
	uint32_t name_len;
	uint8_t encoding, format; /* encoding with its flags; format without its chain flag */
	uint16_t tag, array_len;  /* array_len: constant-length arrays, else 0 */
};

/* Walks the field definitions after the event name. */
struct evhdr_meta_iter {
	const uint8_t *p, *end;
	bool le;
};

/* What a decoded field value is: an integer (signed or not), an 8-bit string, or anything
 * else (arrays, floats, 128-bit values, wide strings, binary, structs), which is skipped with
 * its bytes known but not interpreted. */
enum evhdr_vkind { EVHDR_V_UINT, EVHDR_V_INT, EVHDR_V_STR, EVHDR_V_OTHER };

/* One field of an event: its definition and value (pointers into the event). */
struct evhdr_value {
	struct evhdr_field f;
	enum evhdr_vkind kind;
	uint64_t u;	      /* UINT: the value; INT: the value as int64_t */
	const uint8_t *data;  /* STR: the string's bytes (no count, no NUL); else the field's */
	uint32_t len;	      /* bytes at data */
};

/* Walks an event's fields: its metadata's definitions and its payload together. */
struct evhdr_fields {
	struct evhdr_meta_iter m;
	const uint8_t *p, *end; /* the payload not decoded yet */
};

/* Decode the EventHeader event of len bytes at buf into ev. Returns 0, or -EBADMSG with a
 * short reason in *why (a static string) for an event shorter than its header, an extension
 * running past the end, an extension of kind 0, an activity id that is not 16 or 32 bytes, a
 * second activity id or metadata extension, or level 0. Unknown extension kinds are skipped. */
int evhdr__decode(const void *buf, size_t len, struct evhdr_event *ev, const char **why);
/* The event name in metadata (meta_len bytes): its bytes up to the first ';' (attributes) or
 * NUL, the whole name checked NUL-terminated inside meta; and it the iterator over the fields
 * that follow (it may be NULL). Returns 0 or -EBADMSG. */
int evhdr__meta_name(const uint8_t *meta, uint32_t meta_len, bool le, const char **name,
		     uint32_t *name_len, struct evhdr_meta_iter *it);
/* The next field definition: 1 with f filled, 0 at the end, -EBADMSG when the definition
 * runs past the metadata, has an encoding of 0 or past the last one, both array flags, or a
 * constant array of length 0. */
int evhdr__meta_next(struct evhdr_meta_iter *it, struct evhdr_field *f);
/* Start walking the fields of decoded event ev (it must have metadata); name and name_len get
 * the event name as evhdr__meta_name gives it. Returns 0 or -EBADMSG. */
int evhdr__fields_begin(const struct evhdr_event *ev, struct evhdr_fields *it, const char **name,
			uint32_t *name_len);
/* The next field of it with its value: 1 with v filled, 0 at the end, -EBADMSG when a
 * definition is malformed, a value runs past the payload, a struct has no members or arrays
 * of structs nest deeper than EVHDR_DEPTH_MAX. A scalar struct is one EVHDR_V_OTHER value
 * followed by its members; an array of structs is one EVHDR_V_OTHER value, its members not
 * reported. The work is bounded by the payload's length times the metadata's. */
int evhdr__field_next(struct evhdr_fields *it, struct evhdr_value *v);
/* The value of v as text into buf (len > 0): an integer in decimal (hex with 0x for the hex
 * format), a string in its visible form (bytes outside printable ASCII as '?'), "?" for
 * EVHDR_V_OTHER. */
void evhdr__value_text(const struct evhdr_value *v, char *buf, size_t len);

/* Check a tracepoint name (Provider_L<level>K<keyword>[Options], under EVHDR_NAME_MAX, no
 * ' ' or ':'); provider gets the provider name (provlen bytes at most), *level and *keyword
 * their values. Returns 0 or -EINVAL. */
int evhdr__parse_tpname(const char *tp, char *provider, size_t provlen, uint8_t *level,
			uint64_t *keyword);

/* The kernel's user_events registration (include/uapi/linux/user_events.h, 6.4 and later; not
 * in Debian 12's headers), for the reader (collect/ehtrace.c) and the writer (session/ehemit.c). */
struct ue_reg {
	uint32_t size;
	uint8_t enable_bit;
	uint8_t enable_size;
	uint16_t flags;
	uint64_t enable_addr;
	uint64_t name_args;
	uint32_t write_index;
} __attribute__((__packed__));
#define UE_IOCSREG _IOWR('*', 0, struct ue_reg *)

#endif /* LAT_BASE_EVHDR_H */
