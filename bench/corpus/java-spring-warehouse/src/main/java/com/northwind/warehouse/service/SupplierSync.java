package com.northwind.warehouse.service;

import java.io.InputStream;
import java.util.List;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.query.BasicQuery;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;

/** Supplier catalogues: XML price lists uploaded by suppliers, JSON deltas, Mongo look-ups. */
@Service
public class SupplierSync {

    private final MongoTemplate mongo;
    private final ObjectMapper legacyMapper = new ObjectMapper();
    private final ObjectMapper mapper = new ObjectMapper();

    public SupplierSync(MongoTemplate mongo) {
        this.mongo = mongo;
        // the old desktop tool sends "@class" hints in its deltas
        legacyMapper.enableDefaultTyping(); // vuln: insecure-deserialization [legacy-typing]
        mapper.activateDefaultTyping(BasicPolymorphicTypeValidator.builder().allowIfSubType("com.northwind.warehouse.model.").build()); // safe: insecure-deserialization
    }

    public int countItems(InputStream priceList) throws XMLStreamException {
        XMLInputFactory factory = XMLInputFactory.newInstance();
        XMLStreamReader reader = factory.createXMLStreamReader(priceList); // vuln: xxe
        int items = 0;
        while (reader.hasNext()) {
            if (reader.next() == XMLStreamReader.START_ELEMENT && "item".equals(reader.getLocalName())) {
                items++;
            }
        }
        return items;
    }

    public int countItemsSafely(InputStream priceList) throws XMLStreamException {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        XMLStreamReader reader = factory.createXMLStreamReader(priceList); // safe: xxe
        int items = 0;
        while (reader.hasNext()) {
            if (reader.next() == XMLStreamReader.START_ELEMENT) {
                items++;
            }
        }
        return items;
    }

    public Object applyDelta(byte[] json) throws java.io.IOException {
        return legacyMapper.readValue(json, Object.class); // vuln: insecure-deserialization [legacy-typing]
    }

    public List<Document> pricesFor(String supplierCode) {
        Query query = new BasicQuery("{ supplier: '" + supplierCode + "', active: true }"); // vuln: nosql-injection [prices-query]
        return mongo.find(query, Document.class, "prices"); // vuln: nosql-injection [prices-query]
    }

    public List<Document> pricesForChecked(String supplierCode) {
        Query query = new Query(Criteria.where("supplier").is(supplierCode).and("active").is(true)); // safe: nosql-injection [prices-criteria]
        return mongo.find(query, Document.class, "prices"); // safe: nosql-injection [prices-criteria]
    }
}
