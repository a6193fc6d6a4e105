// Generated from PROFILE_SCHEMA (src/profile/profile.ts) by `npm run generate`. Do not edit.
"use strict";
export const validate = validate20;
export default validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/petstore-mock/petstore-mock/schemas/profile.schema.json","title":"petstore-mock profile","description":"The choices a deployment of the pet store interface made where the interface leaves room. Every choice is \"unknown\" when not learned.","type":"object","additionalProperties":false,"required":["version"],"if":{"properties":{"version":{"const":1}}},"then":{"properties":{"limitAboveMaximum":{"const":"unknown"},"limitBelowMinimum":{"const":"unknown"}}},"properties":{"version":{"enum":[1,2],"description":"The version of this document format: 2 when it uses limitAboveMaximum or limitBelowMinimum."},"limitOutOfRange":{"enum":["refuse","clamp","unknown"],"description":"listPets with an integer limit outside the spec's bounds: 400, or clamped into range."},"limitAboveMaximum":{"enum":["refuse","clamp","unknown"],"description":"Version 2. listPets with an integer limit above the spec's maximum only: 400, or clamped to the maximum. Known, it wins over limitOutOfRange on that side."},"limitBelowMinimum":{"enum":["refuse","clamp","unknown"],"description":"Version 2. listPets with an integer limit below the spec's minimum only: 400, or clamped to the minimum. Known, it wins over limitOutOfRange on that side."},"limitNotInteger":{"enum":["refuse","ignore","unknown"],"description":"listPets with a limit that is not an integer: 400, or ignored (the default page). Unknown: as limitOutOfRange says."},"unknownStatus":{"enum":["refuse","empty","unknown"],"description":"listPets with a status outside the enum: 400, or an empty page."},"defaultStatus":{"enum":["available","pending","sold","omitted","unknown"],"description":"The status of a pet added without one; \"omitted\": the pet has none."},"listOrder":{"enum":["id-asc","id-desc","name","status","unknown"],"description":"The order of listPets."},"nonIntegerPetId":{"enum":[400,404,"unknown"],"description":"getPet with a petId that is not an integer."},"categories":{"description":"Categories a new pet may name: \"any\", or only the known ones (others refused with 400).","oneOf":[{"enum":["any","unknown"]},{"type":"object","additionalProperties":false,"required":["known"],"properties":{"known":{"type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^-?(0|[1-9][0-9]{0,18})$"}}}}]},"idScheme":{"enum":["increasing","random","unknown"],"description":"How ids are assigned."},"idsBeyondDouble":{"enum":[true,false,"unknown"],"description":"Whether ids pass 2^53."},"errorCodes":{"type":"object","description":"The deployment's Error code for each situation, named by the spec's code (x-error-codes).","additionalProperties":false,"properties":{"bad_request":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"malformed_json":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"unauthorized":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"not_found":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"forbidden":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"method_not_allowed":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"request_timeout":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"gone":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"payload_too_large":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"unsupported_media_type":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"expectation_failed":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"request_header_fields_too_large":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"too_many_requests":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"internal_error":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},"service_unavailable":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"}}},"charset":{"enum":["none","utf-8","unknown"],"description":"Content-Type of JSON answers: application/json, or with charset=utf-8."},"deprecation":{"enum":["rfc9745","legacy","unknown"],"description":"getPet's Deprecation header: the RFC 9745 date, or the legacy true."}}};
const func1 = Object.prototype.hasOwnProperty;
const func3 = (text) => { let length = 0; for (const _ of text) length++; return length; };
const pattern4 = new RegExp("^-?(0|[1-9][0-9]{0,18})$", "u");
const pattern5 = new RegExp("^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$", "u");

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://github.com/petstore-mock/petstore-mock/schemas/profile.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs1 = errors;
let valid0 = true;
const _errs2 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.version !== undefined){
if(1 !== data.version){
const err0 = {};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
}
var _valid0 = _errs2 === errors;
errors = _errs1;
if(vErrors !== null){
if(_errs1){
vErrors.length = _errs1;
}
else {
vErrors = null;
}
}
if(_valid0){
const _errs4 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.limitAboveMaximum !== undefined){
const _errs5 = errors;
if("unknown" !== data.limitAboveMaximum){
validate20.errors = [{instancePath:instancePath+"/limitAboveMaximum",schemaPath:"#/then/properties/limitAboveMaximum/const",keyword:"const",params:{allowedValue: "unknown"},message:"must be equal to constant"}];
return false;
}
var valid2 = _errs5 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data.limitBelowMinimum !== undefined){
const _errs6 = errors;
if("unknown" !== data.limitBelowMinimum){
validate20.errors = [{instancePath:instancePath+"/limitBelowMinimum",schemaPath:"#/then/properties/limitBelowMinimum/const",keyword:"const",params:{allowedValue: "unknown"},message:"must be equal to constant"}];
return false;
}
var valid2 = _errs6 === errors;
}
else {
var valid2 = true;
}
}
}
var _valid0 = _errs4 === errors;
valid0 = _valid0;
if(valid0){
var props0 = {};
props0.limitAboveMaximum = true;
props0.limitBelowMinimum = true;
props0.version = true;
}
}
if(!valid0){
const err1 = {instancePath,schemaPath:"#/if",keyword:"if",params:{failingKeyword: "then"},message:"must match \"then\" schema"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
validate20.errors = vErrors;
return false;
}
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.version === undefined) && (missing0 = "version")){
validate20.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
const _errs7 = errors;
for(const key0 in data){
if(!(func1.call(schema31.properties, key0))){
validate20.errors = [{instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs7 === errors){
if(data.version !== undefined){
let data3 = data.version;
const _errs8 = errors;
if(!((data3 === 1) || (data3 === 2))){
validate20.errors = [{instancePath:instancePath+"/version",schemaPath:"#/properties/version/enum",keyword:"enum",params:{allowedValues: schema31.properties.version.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs8 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.limitOutOfRange !== undefined){
let data4 = data.limitOutOfRange;
const _errs9 = errors;
if(!(((data4 === "refuse") || (data4 === "clamp")) || (data4 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/limitOutOfRange",schemaPath:"#/properties/limitOutOfRange/enum",keyword:"enum",params:{allowedValues: schema31.properties.limitOutOfRange.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs9 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.limitAboveMaximum !== undefined){
let data5 = data.limitAboveMaximum;
const _errs10 = errors;
if(!(((data5 === "refuse") || (data5 === "clamp")) || (data5 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/limitAboveMaximum",schemaPath:"#/properties/limitAboveMaximum/enum",keyword:"enum",params:{allowedValues: schema31.properties.limitAboveMaximum.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs10 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.limitBelowMinimum !== undefined){
let data6 = data.limitBelowMinimum;
const _errs11 = errors;
if(!(((data6 === "refuse") || (data6 === "clamp")) || (data6 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/limitBelowMinimum",schemaPath:"#/properties/limitBelowMinimum/enum",keyword:"enum",params:{allowedValues: schema31.properties.limitBelowMinimum.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs11 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.limitNotInteger !== undefined){
let data7 = data.limitNotInteger;
const _errs12 = errors;
if(!(((data7 === "refuse") || (data7 === "ignore")) || (data7 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/limitNotInteger",schemaPath:"#/properties/limitNotInteger/enum",keyword:"enum",params:{allowedValues: schema31.properties.limitNotInteger.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs12 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.unknownStatus !== undefined){
let data8 = data.unknownStatus;
const _errs13 = errors;
if(!(((data8 === "refuse") || (data8 === "empty")) || (data8 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/unknownStatus",schemaPath:"#/properties/unknownStatus/enum",keyword:"enum",params:{allowedValues: schema31.properties.unknownStatus.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs13 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.defaultStatus !== undefined){
let data9 = data.defaultStatus;
const _errs14 = errors;
if(!(((((data9 === "available") || (data9 === "pending")) || (data9 === "sold")) || (data9 === "omitted")) || (data9 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/defaultStatus",schemaPath:"#/properties/defaultStatus/enum",keyword:"enum",params:{allowedValues: schema31.properties.defaultStatus.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs14 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.listOrder !== undefined){
let data10 = data.listOrder;
const _errs15 = errors;
if(!(((((data10 === "id-asc") || (data10 === "id-desc")) || (data10 === "name")) || (data10 === "status")) || (data10 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/listOrder",schemaPath:"#/properties/listOrder/enum",keyword:"enum",params:{allowedValues: schema31.properties.listOrder.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs15 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.nonIntegerPetId !== undefined){
let data11 = data.nonIntegerPetId;
const _errs16 = errors;
if(!(((data11 === 400) || (data11 === 404)) || (data11 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/nonIntegerPetId",schemaPath:"#/properties/nonIntegerPetId/enum",keyword:"enum",params:{allowedValues: schema31.properties.nonIntegerPetId.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs16 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.categories !== undefined){
let data12 = data.categories;
const _errs17 = errors;
const _errs18 = errors;
let valid4 = false;
let passing0 = null;
const _errs19 = errors;
if(!((data12 === "any") || (data12 === "unknown"))){
const err2 = {instancePath:instancePath+"/categories",schemaPath:"#/properties/categories/oneOf/0/enum",keyword:"enum",params:{allowedValues: schema31.properties.categories.oneOf[0].enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid1 = _errs19 === errors;
if(_valid1){
valid4 = true;
passing0 = 0;
}
const _errs20 = errors;
if(errors === _errs20){
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
let missing1;
if((data12.known === undefined) && (missing1 = "known")){
const err3 = {instancePath:instancePath+"/categories",schemaPath:"#/properties/categories/oneOf/1/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
else {
const _errs22 = errors;
for(const key1 in data12){
if(!(key1 === "known")){
const err4 = {instancePath:instancePath+"/categories",schemaPath:"#/properties/categories/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
break;
}
}
if(_errs22 === errors){
if(data12.known !== undefined){
let data13 = data12.known;
const _errs23 = errors;
if(errors === _errs23){
if(Array.isArray(data13)){
if(data13.length < 1){
const err5 = {instancePath:instancePath+"/categories/known",schemaPath:"#/properties/categories/oneOf/1/properties/known/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
else {
var valid6 = true;
const len0 = data13.length;
for(let i0=0; i0<len0; i0++){
let data14 = data13[i0];
const _errs25 = errors;
if(errors === _errs25){
if(typeof data14 === "string"){
if(!pattern4.test(data14)){
const err6 = {instancePath:instancePath+"/categories/known/" + i0,schemaPath:"#/properties/categories/oneOf/1/properties/known/items/pattern",keyword:"pattern",params:{pattern: "^-?(0|[1-9][0-9]{0,18})$"},message:"must match pattern \""+"^-?(0|[1-9][0-9]{0,18})$"+"\""};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/categories/known/" + i0,schemaPath:"#/properties/categories/oneOf/1/properties/known/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
var valid6 = _errs25 === errors;
if(!valid6){
break;
}
}
if(valid6){
let i1 = data13.length;
let j0;
if(i1 > 1){
const indices0 = {};
for(;i1--;){
let item0 = data13[i1];
if(typeof item0 !== "string"){
continue;
}
if(typeof indices0[item0] == "number"){
j0 = indices0[item0];
const err8 = {instancePath:instancePath+"/categories/known",schemaPath:"#/properties/categories/oneOf/1/properties/known/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
break;
}
indices0[item0] = i1;
}
}
}
}
}
else {
const err9 = {instancePath:instancePath+"/categories/known",schemaPath:"#/properties/categories/oneOf/1/properties/known/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
}
}
}
else {
const err10 = {instancePath:instancePath+"/categories",schemaPath:"#/properties/categories/oneOf/1/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
var _valid1 = _errs20 === errors;
if(_valid1 && valid4){
valid4 = false;
passing0 = [passing0, 1];
}
else {
if(_valid1){
valid4 = true;
passing0 = 1;
}
}
if(!valid4){
const err11 = {instancePath:instancePath+"/categories",schemaPath:"#/properties/categories/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
validate20.errors = vErrors;
return false;
}
else {
errors = _errs18;
if(vErrors !== null){
if(_errs18){
vErrors.length = _errs18;
}
else {
vErrors = null;
}
}
}
var valid3 = _errs17 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.idScheme !== undefined){
let data15 = data.idScheme;
const _errs27 = errors;
if(!(((data15 === "increasing") || (data15 === "random")) || (data15 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/idScheme",schemaPath:"#/properties/idScheme/enum",keyword:"enum",params:{allowedValues: schema31.properties.idScheme.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs27 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.idsBeyondDouble !== undefined){
let data16 = data.idsBeyondDouble;
const _errs28 = errors;
if(!(((data16 === true) || (data16 === false)) || (data16 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/idsBeyondDouble",schemaPath:"#/properties/idsBeyondDouble/enum",keyword:"enum",params:{allowedValues: schema31.properties.idsBeyondDouble.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs28 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.errorCodes !== undefined){
let data17 = data.errorCodes;
const _errs29 = errors;
if(errors === _errs29){
if(data17 && typeof data17 == "object" && !Array.isArray(data17)){
const _errs31 = errors;
for(const key2 in data17){
if(!(func1.call(schema31.properties.errorCodes.properties, key2))){
validate20.errors = [{instancePath:instancePath+"/errorCodes",schemaPath:"#/properties/errorCodes/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs31 === errors){
if(data17.bad_request !== undefined){
let data18 = data17.bad_request;
const _errs32 = errors;
if(errors === _errs32){
if(typeof data18 === "string"){
if(func3(data18) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/bad_request",schemaPath:"#/properties/errorCodes/properties/bad_request/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data18) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/bad_request",schemaPath:"#/properties/errorCodes/properties/bad_request/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data18)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/bad_request",schemaPath:"#/properties/errorCodes/properties/bad_request/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/bad_request",schemaPath:"#/properties/errorCodes/properties/bad_request/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs32 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.malformed_json !== undefined){
let data19 = data17.malformed_json;
const _errs34 = errors;
if(errors === _errs34){
if(typeof data19 === "string"){
if(func3(data19) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/malformed_json",schemaPath:"#/properties/errorCodes/properties/malformed_json/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data19) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/malformed_json",schemaPath:"#/properties/errorCodes/properties/malformed_json/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data19)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/malformed_json",schemaPath:"#/properties/errorCodes/properties/malformed_json/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/malformed_json",schemaPath:"#/properties/errorCodes/properties/malformed_json/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs34 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.unauthorized !== undefined){
let data20 = data17.unauthorized;
const _errs36 = errors;
if(errors === _errs36){
if(typeof data20 === "string"){
if(func3(data20) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/unauthorized",schemaPath:"#/properties/errorCodes/properties/unauthorized/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data20) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/unauthorized",schemaPath:"#/properties/errorCodes/properties/unauthorized/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data20)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/unauthorized",schemaPath:"#/properties/errorCodes/properties/unauthorized/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/unauthorized",schemaPath:"#/properties/errorCodes/properties/unauthorized/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs36 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.not_found !== undefined){
let data21 = data17.not_found;
const _errs38 = errors;
if(errors === _errs38){
if(typeof data21 === "string"){
if(func3(data21) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/not_found",schemaPath:"#/properties/errorCodes/properties/not_found/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data21) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/not_found",schemaPath:"#/properties/errorCodes/properties/not_found/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data21)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/not_found",schemaPath:"#/properties/errorCodes/properties/not_found/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/not_found",schemaPath:"#/properties/errorCodes/properties/not_found/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs38 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.forbidden !== undefined){
let data22 = data17.forbidden;
const _errs40 = errors;
if(errors === _errs40){
if(typeof data22 === "string"){
if(func3(data22) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/forbidden",schemaPath:"#/properties/errorCodes/properties/forbidden/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data22) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/forbidden",schemaPath:"#/properties/errorCodes/properties/forbidden/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data22)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/forbidden",schemaPath:"#/properties/errorCodes/properties/forbidden/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/forbidden",schemaPath:"#/properties/errorCodes/properties/forbidden/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs40 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.method_not_allowed !== undefined){
let data23 = data17.method_not_allowed;
const _errs42 = errors;
if(errors === _errs42){
if(typeof data23 === "string"){
if(func3(data23) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/method_not_allowed",schemaPath:"#/properties/errorCodes/properties/method_not_allowed/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data23) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/method_not_allowed",schemaPath:"#/properties/errorCodes/properties/method_not_allowed/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data23)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/method_not_allowed",schemaPath:"#/properties/errorCodes/properties/method_not_allowed/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/method_not_allowed",schemaPath:"#/properties/errorCodes/properties/method_not_allowed/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs42 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.request_timeout !== undefined){
let data24 = data17.request_timeout;
const _errs44 = errors;
if(errors === _errs44){
if(typeof data24 === "string"){
if(func3(data24) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/request_timeout",schemaPath:"#/properties/errorCodes/properties/request_timeout/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data24) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/request_timeout",schemaPath:"#/properties/errorCodes/properties/request_timeout/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data24)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/request_timeout",schemaPath:"#/properties/errorCodes/properties/request_timeout/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/request_timeout",schemaPath:"#/properties/errorCodes/properties/request_timeout/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs44 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.gone !== undefined){
let data25 = data17.gone;
const _errs46 = errors;
if(errors === _errs46){
if(typeof data25 === "string"){
if(func3(data25) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/gone",schemaPath:"#/properties/errorCodes/properties/gone/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data25) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/gone",schemaPath:"#/properties/errorCodes/properties/gone/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data25)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/gone",schemaPath:"#/properties/errorCodes/properties/gone/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/gone",schemaPath:"#/properties/errorCodes/properties/gone/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs46 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.payload_too_large !== undefined){
let data26 = data17.payload_too_large;
const _errs48 = errors;
if(errors === _errs48){
if(typeof data26 === "string"){
if(func3(data26) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/payload_too_large",schemaPath:"#/properties/errorCodes/properties/payload_too_large/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data26) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/payload_too_large",schemaPath:"#/properties/errorCodes/properties/payload_too_large/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data26)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/payload_too_large",schemaPath:"#/properties/errorCodes/properties/payload_too_large/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/payload_too_large",schemaPath:"#/properties/errorCodes/properties/payload_too_large/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs48 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.unsupported_media_type !== undefined){
let data27 = data17.unsupported_media_type;
const _errs50 = errors;
if(errors === _errs50){
if(typeof data27 === "string"){
if(func3(data27) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/unsupported_media_type",schemaPath:"#/properties/errorCodes/properties/unsupported_media_type/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data27) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/unsupported_media_type",schemaPath:"#/properties/errorCodes/properties/unsupported_media_type/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data27)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/unsupported_media_type",schemaPath:"#/properties/errorCodes/properties/unsupported_media_type/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/unsupported_media_type",schemaPath:"#/properties/errorCodes/properties/unsupported_media_type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs50 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.expectation_failed !== undefined){
let data28 = data17.expectation_failed;
const _errs52 = errors;
if(errors === _errs52){
if(typeof data28 === "string"){
if(func3(data28) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/expectation_failed",schemaPath:"#/properties/errorCodes/properties/expectation_failed/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data28) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/expectation_failed",schemaPath:"#/properties/errorCodes/properties/expectation_failed/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data28)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/expectation_failed",schemaPath:"#/properties/errorCodes/properties/expectation_failed/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/expectation_failed",schemaPath:"#/properties/errorCodes/properties/expectation_failed/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs52 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.request_header_fields_too_large !== undefined){
let data29 = data17.request_header_fields_too_large;
const _errs54 = errors;
if(errors === _errs54){
if(typeof data29 === "string"){
if(func3(data29) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/request_header_fields_too_large",schemaPath:"#/properties/errorCodes/properties/request_header_fields_too_large/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data29) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/request_header_fields_too_large",schemaPath:"#/properties/errorCodes/properties/request_header_fields_too_large/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data29)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/request_header_fields_too_large",schemaPath:"#/properties/errorCodes/properties/request_header_fields_too_large/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/request_header_fields_too_large",schemaPath:"#/properties/errorCodes/properties/request_header_fields_too_large/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs54 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.too_many_requests !== undefined){
let data30 = data17.too_many_requests;
const _errs56 = errors;
if(errors === _errs56){
if(typeof data30 === "string"){
if(func3(data30) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/too_many_requests",schemaPath:"#/properties/errorCodes/properties/too_many_requests/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data30) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/too_many_requests",schemaPath:"#/properties/errorCodes/properties/too_many_requests/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data30)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/too_many_requests",schemaPath:"#/properties/errorCodes/properties/too_many_requests/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/too_many_requests",schemaPath:"#/properties/errorCodes/properties/too_many_requests/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs56 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.internal_error !== undefined){
let data31 = data17.internal_error;
const _errs58 = errors;
if(errors === _errs58){
if(typeof data31 === "string"){
if(func3(data31) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/internal_error",schemaPath:"#/properties/errorCodes/properties/internal_error/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data31) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/internal_error",schemaPath:"#/properties/errorCodes/properties/internal_error/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data31)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/internal_error",schemaPath:"#/properties/errorCodes/properties/internal_error/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/internal_error",schemaPath:"#/properties/errorCodes/properties/internal_error/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs58 === errors;
}
else {
var valid8 = true;
}
if(valid8){
if(data17.service_unavailable !== undefined){
let data32 = data17.service_unavailable;
const _errs60 = errors;
if(errors === _errs60){
if(typeof data32 === "string"){
if(func3(data32) > 100){
validate20.errors = [{instancePath:instancePath+"/errorCodes/service_unavailable",schemaPath:"#/properties/errorCodes/properties/service_unavailable/maxLength",keyword:"maxLength",params:{limit: 100},message:"must NOT have more than 100 characters"}];
return false;
}
else {
if(func3(data32) < 1){
validate20.errors = [{instancePath:instancePath+"/errorCodes/service_unavailable",schemaPath:"#/properties/errorCodes/properties/service_unavailable/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
else {
if(!pattern5.test(data32)){
validate20.errors = [{instancePath:instancePath+"/errorCodes/service_unavailable",schemaPath:"#/properties/errorCodes/properties/service_unavailable/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"},message:"must match pattern \""+"^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$"+"\""}];
return false;
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes/service_unavailable",schemaPath:"#/properties/errorCodes/properties/service_unavailable/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid8 = _errs60 === errors;
}
else {
var valid8 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate20.errors = [{instancePath:instancePath+"/errorCodes",schemaPath:"#/properties/errorCodes/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid3 = _errs29 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.charset !== undefined){
let data33 = data.charset;
const _errs62 = errors;
if(!(((data33 === "none") || (data33 === "utf-8")) || (data33 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/charset",schemaPath:"#/properties/charset/enum",keyword:"enum",params:{allowedValues: schema31.properties.charset.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs62 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data.deprecation !== undefined){
let data34 = data.deprecation;
const _errs63 = errors;
if(!(((data34 === "rfc9745") || (data34 === "legacy")) || (data34 === "unknown"))){
validate20.errors = [{instancePath:instancePath+"/deprecation",schemaPath:"#/properties/deprecation/enum",keyword:"enum",params:{allowedValues: schema31.properties.deprecation.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid3 = _errs63 === errors;
}
else {
var valid3 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate20.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

