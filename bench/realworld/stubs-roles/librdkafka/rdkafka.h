/* Declaration-only stand-in for librdkafka/rdkafka.h (not installed here);
   written for capture-lint's roles-across-files measurement. */
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
typedef struct rd_kafka_s rd_kafka_t;
typedef struct rd_kafka_topic_s rd_kafka_topic_t;
typedef struct rd_kafka_conf_s rd_kafka_conf_t;
typedef struct rd_kafka_message_s { int err; rd_kafka_topic_t *rkt; int partition; void *payload; unsigned long len; void *key; unsigned long key_len; long long offset; void *_private; } rd_kafka_message_t;
typedef enum { RD_KAFKA_RESP_ERR_NO_ERROR = 0 } rd_kafka_resp_err_t;
#ifdef __cplusplus
}
#endif
